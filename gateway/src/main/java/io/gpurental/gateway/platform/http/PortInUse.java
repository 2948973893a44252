package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.config.ConfigException;
import java.net.BindException;

/**
 * Turns "Address already in use" into a start error that names the setting to change: another
 * gateway (or anything else) on the same machine holds the port.
 */
public final class PortInUse {
  private PortInUse() {}

  public static Throwable explain(Throwable failure, String setting, String host, int port) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException) {
        return new ConfigException(setting, host + ":" + port + " is in use (another gateway on this machine?);"
            + " choose a free port with GATEWAY_" + setting.toUpperCase(java.util.Locale.ROOT).replace('.', '_'));
      }
    }
    return failure;
  }
}
