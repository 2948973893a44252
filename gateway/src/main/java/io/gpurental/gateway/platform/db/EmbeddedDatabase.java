package io.gpurental.gateway.platform.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL server used when no {@code db.url} is configured. Its data directory
 * persists across restarts, and durability is switched back on (zonky turns fsync and
 * synchronous_commit off by default, which would lose committed rows on a crash).
 *
 * <p>It must provably be this installation's own server: a data directory another server runs
 * on is refused, and the server reached on the port must report this data directory (zonky
 * reports "started" when its port answers, even if what answers is someone else's server).
 */
public final class EmbeddedDatabase implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
  /** Port setting meaning "any port that is free at start". */
  public static final int ANY_FREE_PORT = 0;
  private final EmbeddedPostgres postgres;

  private EmbeddedDatabase(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts (blocking) on the given data directory and port (0: any free port). */
  public static EmbeddedDatabase start(Path configuredDir, int port) {
    Path dataDir = canonical(configuredDir);
    DataDirectoryInUse.refuseIfInUse(dataDir);
    EmbeddedDatabase database = new EmbeddedDatabase(startServer(dataDir, port));
    try {
      database.verifyServes(dataDir);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
    LOG.info("Embedded PostgreSQL running on 127.0.0.1:{} with data in {}", database.port(), dataDir);
    return database;
  }

  private static Path canonical(Path dir) {
    try {
      Files.createDirectories(dir);
      return dir.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the embedded PostgreSQL data directory " + dir, e);
    }
  }

  private static EmbeddedPostgres startServer(Path dataDir, int port) {
    try {
      return EmbeddedPostgres.builder()
          .setDataDirectory(dataDir)
          .setCleanDataDirectory(false)
          .setPort(port)
          .setServerConfig("fsync", "on")
          .setServerConfig("synchronous_commit", "on")
          .setServerConfig("full_page_writes", "on")
          .start();
    } catch (IOException | RuntimeException e) {
      // zonky's own lock on the directory fails with an exception without a message
      throw new IllegalStateException("cannot start embedded PostgreSQL with data directory " + dataDir
          + (port == ANY_FREE_PORT ? "" : " on port " + port) + ": " + describe(e)
          + " (is another gateway using that directory or port?)", e);
    }
  }

  private static String describe(Exception e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  private void verifyServes(Path dataDir) {
    String reached = dataDirectoryOfServerOnPort();
    if (!dataDir.equals(canonicalOrSelf(Path.of(reached)))) {
      throw new IllegalStateException("the PostgreSQL server on 127.0.0.1:" + port() + " runs on data directory "
          + reached + ", not on this gateway's " + dataDir + " (another server holds db.embedded.port "
          + port() + "; leave db.embedded.port at 0 for any free port)");
    }
  }

  private String dataDirectoryOfServerOnPort() {
    DatabaseTarget target = DatabaseTarget.embedded(port());
    try (Connection connection = DriverManager.getConnection(target.jdbcUrl(), target.user(), target.password());
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SHOW data_directory")) {
      row.next();
      return row.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot ask the PostgreSQL server on 127.0.0.1:" + port()
          + " for its data directory: " + e.getMessage(), e);
    }
  }

  private static Path canonicalOrSelf(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path;
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
