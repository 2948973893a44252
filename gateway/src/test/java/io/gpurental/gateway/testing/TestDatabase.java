package io.gpurental.gateway.testing;

import io.gpurental.gateway.platform.db.DatabaseTarget;
import io.gpurental.gateway.platform.db.Migrations;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One embedded PostgreSQL per test JVM, shared by every test class; each class gets a fresh
 * database of its own, so tests never see each other's rows. Each is a copy of one template
 * database migrated once per JVM, so a class pays for {@code CREATE DATABASE … TEMPLATE}, not for
 * a Flyway run from V1.
 */
public final class TestDatabase {
  private static final String TEMPLATE = "migrated_template";
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static EmbeddedPostgres server;

  private TestDatabase() {}

  /** A new database with every migration applied, and its {@code db.url}. */
  public static synchronized String newDatabaseUrl() {
    String name = "test_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
    execute("CREATE DATABASE " + name + " TEMPLATE " + TEMPLATE);
    return "postgresql://postgres@127.0.0.1:" + server().getPort() + "/" + name;
  }

  private static void execute(String sql) {
    try (Connection connection = server().getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("test database statement failed: " + sql, e);
    }
  }

  private static synchronized EmbeddedPostgres server() {
    if (server == null) {
      try {
        server = EmbeddedPostgres.builder().start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the shared test PostgreSQL", e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          server.close();
        } catch (IOException ignored) {
          // the JVM is exiting; the temporary data directory goes with it
        }
      }));
      execute("CREATE DATABASE " + TEMPLATE);
      Migrations.migrate(new DatabaseTarget("127.0.0.1", server.getPort(), TEMPLATE, "postgres", ""));
    }
    return server;
  }
}
