package io.gpurental.gateway.auth;

import io.gpurental.gateway.platform.errors.Conflict;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;

/**
 * Someone must always be able to undo a suspension or a revoked role: a change that would leave
 * no operator who is not suspended is refused. Changes to operators are serialised by a
 * transaction-scoped advisory lock, so two operators suspending each other at once cannot both
 * succeed: the second sees the first's result.
 */
final class OperatorQuorum {
  private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtext('gpr.operator-quorum'))";
  private static final String ACTIVE_OPERATORS = """
      SELECT count(*) FROM accounts a JOIN account_roles r ON r.account_id = a.id AND r.role = 'operator'
      WHERE a.suspended_at IS NULL""";

  private OperatorQuorum() {}

  /** Taken first in a transaction that suspends an account or revokes a role. */
  static Future<Void> lock(SqlClient tx) {
    return tx.query(LOCK).execute().mapEmpty();
  }

  /** Fails the transaction (409) when its change left no active operator. */
  static Future<Void> ensureOneLeft(SqlClient tx) {
    return tx.query(ACTIVE_OPERATORS).execute().map(rows -> {
      if (rows.iterator().next().getLong(0) == 0) {
        throw new Conflict("This would leave no operator who can sign in and undo it; grant the operator role to"
            + " another account (or lift a suspension) first.");
      }
      return null;
    });
  }
}
