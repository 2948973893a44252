package io.gpurental.gateway.config;

import java.net.URI;
import java.time.Duration;

/** The HTTP edge: where it listens, how much it accepts, how it drains. */
public record HttpConfig(
    String host,
    int port,
    int instances,
    int bodyLimitBytes,
    URI publicUrl,
    Duration drainTimeout,
    Duration unreadyGrace,
    boolean trustForwardedHeaders) {

  /** Behind TLS the cookies get Secure and responses carry HSTS. */
  public boolean behindTls() {
    return "https".equals(publicUrl.getScheme());
  }

  /** The number of HTTP verticle instances to deploy (0 in config means one per core). */
  public int effectiveInstances() {
    return instances > 0 ? instances : Runtime.getRuntime().availableProcessors();
  }
}
