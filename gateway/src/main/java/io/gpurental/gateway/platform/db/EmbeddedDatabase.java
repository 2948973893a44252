package io.gpurental.gateway.platform.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL server used when no {@code db.url} is configured. Its data directory
 * persists across restarts, and durability is switched back on (zonky turns fsync and
 * synchronous_commit off by default, which would lose committed rows on a crash).
 */
public final class EmbeddedDatabase implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
  private final EmbeddedPostgres postgres;

  private EmbeddedDatabase(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts (blocking) on the given data directory and port. */
  public static EmbeddedDatabase start(Path dataDir, int port) {
    try {
      Files.createDirectories(dataDir);
      EmbeddedPostgres postgres = EmbeddedPostgres.builder()
          .setDataDirectory(dataDir.toAbsolutePath())
          .setCleanDataDirectory(false)
          .setPort(port)
          .setServerConfig("fsync", "on")
          .setServerConfig("synchronous_commit", "on")
          .setServerConfig("full_page_writes", "on")
          .start();
      LOG.info("Embedded PostgreSQL running on 127.0.0.1:{} with data in {}", port, dataDir.toAbsolutePath());
      return new EmbeddedDatabase(postgres);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start embedded PostgreSQL in " + dataDir
          + " on port " + port + " (is another gateway using it?)", e);
    }
  }

  public int port() {
    return postgres.getPort();
  }

  /** Stops the server cleanly (blocking). */
  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      LOG.warn("Embedded PostgreSQL did not stop cleanly", e);
    }
  }
}
