package io.gpurental.gateway.platform.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Which database a node uses, independent of how it is addressed: the PostgreSQL cluster's
 * system identifier (set once by initdb) and the database name. Two nodes share data exactly
 * when their identities are equal.
 */
public record DatabaseIdentity(long systemIdentifier, String database) {
  private static final String QUERY = "SELECT system_identifier, current_database() FROM pg_control_system()";

  /** Asks the server (blocking JDBC: call off the event loop). */
  public static DatabaseIdentity of(DatabaseTarget target) {
    try (Connection connection = DriverManager.getConnection(target.jdbcUrl(), target.user(), target.password());
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(QUERY)) {
      row.next();
      return new DatabaseIdentity(row.getLong(1), row.getString(2));
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the identity of " + target + ": " + e.getMessage(), e);
    }
  }

  /** The form published in the cluster map and shown in errors. */
  @Override
  public String toString() {
    return "PostgreSQL system " + systemIdentifier + ", database " + database;
  }
}
