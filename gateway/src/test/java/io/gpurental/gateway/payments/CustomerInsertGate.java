package io.gpurental.gateway.payments;

import static io.gpurental.gateway.testing.TestGateway.await;

import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import io.vertx.sqlclient.Tuple;

/**
 * Makes an account's concurrent first payments store their Stripe customer at the same moment, so
 * that a race between those inserts is run every time instead of now and then: an uncommitted row
 * of the account's (in a transaction of the test's own, on one of the node's pooled connections)
 * holds each of the gateway's inserts at the account's key; once enough of them wait, the row is
 * rolled back and they all go on together.
 */
final class CustomerInsertGate implements AutoCloseable {
  private static final String HOLD = "INSERT INTO stripe_customers (account_id, customer_id) VALUES ($1, $2)";
  /** The gateway's statements waiting for this transaction (pg_locks is read afresh by every statement). */
  private static final String WAITING = """
      SELECT count(*) FROM pg_locks
      WHERE locktype = 'transactionid' AND NOT granted AND transactionid = xid(pg_current_xact_id())""";
  private final SqlConnection connection;
  private final Transaction transaction;
  private boolean open;

  private CustomerInsertGate(SqlConnection connection, Transaction transaction) {
    this.connection = connection;
    this.transaction = transaction;
  }

  /** Shuts the gate for the account's customer row (the account has none yet). */
  static CustomerInsertGate shut(TestGateway node, String accountId) {
    SqlConnection connection = await(node.gateway().pool().getConnection());
    Transaction transaction = await(connection.begin());
    await(connection.preparedQuery(HOLD).execute(Tuple.of(accountId, "cus_gate_" + accountId)));
    return new CustomerInsertGate(connection, transaction);
  }

  /** Waits (bounded) until {@code inserts} of the gateway's wait at the gate, then lets them all go. */
  void openWhenWaiting(int inserts) {
    Eventually.eventually(inserts + " customer inserts waiting at the gate",
        () -> await(connection.query(WAITING).execute()).iterator().next().getLong(0), waiting -> waiting >= inserts);
    close();
  }

  @Override
  public void close() {
    if (!open) {
      open = true;
      await(transaction.rollback().eventually(() -> connection.close()));
    }
  }
}
