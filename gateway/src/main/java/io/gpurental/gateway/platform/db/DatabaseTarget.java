package io.gpurental.gateway.platform.db;

import io.gpurental.gateway.config.DbConfig;
import io.vertx.pgclient.PgConnectOptions;
import java.net.URI;

/**
 * Where the PostgreSQL server is, in the two forms the gateway needs: Vert.x connect options for
 * the reactive pool and a JDBC URL for Flyway.
 */
public record DatabaseTarget(String host, int port, String database, String user, String password) {
  private static final String EMBEDDED_DATABASE = "postgres";
  private static final String EMBEDDED_USER = "postgres";

  /** The configured server, from {@code db.url} (user and password may come from the URL). */
  public static DatabaseTarget fromUrl(URI url, DbConfig db) {
    PgConnectOptions options = PgConnectOptions.fromUri(url.toString());
    String user = url.getUserInfo() != null ? options.getUser() : db.user();
    String password = options.getPassword() != null && !options.getPassword().isEmpty()
        ? options.getPassword() : db.password();
    return new DatabaseTarget(options.getHost(), options.getPort(), options.getDatabase(), user, password);
  }

  /** The embedded server on loopback, reached as its superuser (it trusts local connections). */
  public static DatabaseTarget embedded(int port) {
    return new DatabaseTarget("127.0.0.1", port, EMBEDDED_DATABASE, EMBEDDED_USER, "");
  }

  public PgConnectOptions connectOptions() {
    return new PgConnectOptions()
        .setHost(host)
        .setPort(port)
        .setDatabase(database)
        .setUser(user)
        .setPassword(password)
        .setCachePreparedStatements(true);
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  @Override
  public String toString() {
    return "postgresql://" + user + "@" + host + ":" + port + "/" + database;
  }
}
