package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Stopping a node turns readiness off and lets a request already in flight finish. */
class DrainTest {
  @Test
  void inFlightRequestCompletesWhileTheNodeDrains() throws Exception {
    TestGateway node = TestGateway.start();
    int port = node.gateway().config().http().port();
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      // headers and half of the body: the request is in flight when the stop begins
      out.write(("POST /api/v1/version HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
          + "Content-Length: 2\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      assertTrue(TestGateway.await(node.gateway().ready()), "ready before the stop");

      Future<Void> stopped = node.gateway().stop();
      assertFalse(TestGateway.await(node.gateway().ready()), "not ready once draining");
      awaitNewConnectionsRefused(port);
      assertFalse(stopped.isComplete(), "the stop waits for the request in flight");

      out.write('}');
      out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      String statusLine = in.readLine();
      assertTrue(statusLine != null && statusLine.startsWith("HTTP/1.1 405"), "in-flight request answered: " + statusLine);
      TestGateway.await(stopped);
    }
  }

  /** Polls until the listener is gone; the bound only stops a broken build from hanging. */
  private static void awaitNewConnectionsRefused(int port) {
    Eventually.eventually("the node refused new connections while draining", Duration.ofSeconds(10),
        () -> connects(port), connected -> !connected);
  }

  private static boolean connects(int port) {
    try (Socket probe = new Socket("127.0.0.1", port)) {
      return true;
    } catch (java.io.IOException refused) {
      return false;
    }
  }
}
