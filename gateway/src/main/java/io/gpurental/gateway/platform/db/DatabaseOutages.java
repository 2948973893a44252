package io.gpurental.gateway.platform.db;

import io.vertx.core.VertxException;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import java.net.ConnectException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/** Tells failures that mean "PostgreSQL is unavailable right now" (retry later) from bugs. */
public final class DatabaseOutages {
  /**
   * SQLSTATEs of a server that cannot serve now: statement timeout (57014), shutting down or
   * starting up (57P01-57P03), too many connections (53300); class 08 is a connection exception.
   */
  private static final Set<String> UNAVAILABLE_STATES = Set.of("57014", "57P01", "57P02", "57P03", "53300");
  /** The pool fails a one-shot query that waited too long for a connection with a plain VertxException... */
  private static final String POOL_WAIT_TIMEOUT = "Timeout waiting for connection";
  /**
   * ...and a transaction (or any {@code getConnection}) that waited too long with a bare
   * {@code NoStackTraceThrowable("Timeout")} (vertx-sql-client 5.0.7, SqlConnectionPool's request).
   */
  private static final String BUSY_POOL_TIMEOUT = "Timeout";
  /**
   * A query handed a pooled connection in the instant it was dropped (a silent connection closed
   * while PostgreSQL is frozen): "Connection is not active now, current status: CLOSED".
   */
  private static final String NOT_ACTIVE = "Connection is not active now";

  private DatabaseOutages() {}

  public static boolean isOutage(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (isOutageItself(cause)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isOutageItself(Throwable failure) {
    if (failure instanceof DatabaseException db && db.getSqlState() != null) {
      return UNAVAILABLE_STATES.contains(db.getSqlState()) || db.getSqlState().startsWith("08");
    }
    // no free pool connection in time, a full wait queue, a dropped or refused connection
    return failure instanceof TimeoutException
        || failure instanceof VertxException && POOL_WAIT_TIMEOUT.equals(failure.getMessage())
        || failure instanceof VertxException && String.valueOf(failure.getMessage()).startsWith(NOT_ACTIVE)
        || failure.getClass() == NoStackTraceThrowable.class && BUSY_POOL_TIMEOUT.equals(failure.getMessage())
        || failure instanceof ConnectionPoolTooBusyException
        || failure instanceof ClosedConnectionException
        || failure instanceof ConnectException;
  }
}
