package io.gpurental.gateway.config;

import java.net.URI;
import java.nio.file.Path;
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
}
