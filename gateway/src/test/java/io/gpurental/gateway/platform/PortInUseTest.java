package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.config.ConfigException;
import io.gpurental.gateway.testing.TestGateway;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A port another process holds stops the start with the setting to change, not a bare BindException. */
class PortInUseTest {
  @Test
  void aTakenManagementPortNamesTheSetting() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Map<String, String> settings = TestGateway.settings();
      settings.put("GATEWAY_MANAGEMENT_PORT", Integer.toString(taken.getLocalPort()));
      IllegalStateException refused = assertThrows(IllegalStateException.class, () -> TestGateway.start(settings));
      Throwable cause = refused;
      while (!(cause instanceof ConfigException) && cause.getCause() != null) {
        cause = cause.getCause();
      }
      String message = cause.getMessage();
      assertTrue(refused.getMessage().contains("starting: starting the HTTP listeners: management.port: "),
          "the start step is named: " + refused.getMessage());
      assertTrue(message.startsWith("management.port: 127.0.0.1:" + taken.getLocalPort() + " is in use")
          && message.contains("GATEWAY_MANAGEMENT_PORT"), message);
    }
  }
}
