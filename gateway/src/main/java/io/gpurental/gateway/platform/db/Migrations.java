package io.gpurental.gateway.platform.db;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies the packaged {@code sql/V*.sql} migrations with Flyway. Blocking: call off the event loop. */
public final class Migrations {
  private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
  static final String LOCATION = "classpath:db/migration";

  private Migrations() {}

  /** Migrates the database to the newest version and returns that schema version. */
  public static String migrate(DatabaseTarget target) {
    Flyway flyway = Flyway.configure()
        .dataSource(target.jdbcUrl(), target.user(), target.password())
        .locations(LOCATION)
        // several nodes may start at once: Flyway serialises them with an advisory lock
        .lockRetryCount(120)
        .load();
    MigrateResult result = flyway.migrate();
    if (result.migrationsExecuted > 0) {
      LOG.info("Applied {} migration(s) to {}", result.migrationsExecuted, target);
    }
    MigrationInfo current = flyway.info().current();
    if (current == null || current.getVersion() == null) {
      throw new IllegalStateException("no schema version after migrating " + target);
    }
    return current.getVersion().getVersion();
  }
}
