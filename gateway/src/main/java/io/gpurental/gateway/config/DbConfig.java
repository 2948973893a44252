package io.gpurental.gateway.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * PostgreSQL: a server URL, or (when absent) the embedded server's data directory and port, and
 * the pool's size and limits.
 */
public record DbConfig(
    Optional<URI> url, String user, String password, int poolSize, DbLimits limits,
    Path embeddedDataDir, int embeddedPort) {

  public boolean embedded() {
    return url.isEmpty();
  }

  /** The same server with one connection whose statements may run as long as {@code statement}. */
  public DbConfig forLongStatements(Duration statement) {
    return new DbConfig(url, user, password, 1,
        new DbLimits(limits.connectTimeout(), statement, limits.poolWaitTimeout(), limits.poolWaitQueueSize()),
        embeddedDataDir, embeddedPort);
  }
}
