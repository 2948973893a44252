package io.gpurental.gateway.payments;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;

/** The ledger's transactions and entries, and its check, in PostgreSQL. */
final class LedgerRepository {
  private static final String OPEN = "INSERT INTO ledger_transactions (kind, ref) VALUES ($1, $2) RETURNING id";
  private static final String ENTRY = "INSERT INTO ledger_entries (transaction_id, account, amount, currency)"
      + " VALUES ($1, $2, $3, $4)";
  /** The check reads one snapshot, so its problems, count and balances agree. */
  private static final String SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY";
  private static final String PROBLEMS = "SELECT problem, ref, detail FROM ledger_problems ORDER BY problem, ref";
  private static final String COUNT = "SELECT count(*) FROM ledger_transactions";
  private static final String BALANCES = """
      SELECT account, currency, sum(amount) FROM ledger_entries GROUP BY account, currency
      ORDER BY account, currency""";

  private LedgerRepository() {}

  /** One line of a ledger transaction (debits positive, credits negative). */
  record Entry(String account, long amount) {}

  /** What the ledger check found wrong about one reference. */
  record Problem(String problem, String ref, String detail) {}

  /** The sum of one account's entries in one currency. */
  record Balance(String account, String currency, long amount) {}

  /** The ledger at one moment. */
  record Check(List<Problem> problems, long transactions, List<Balance> balances) {}

  /** Writes a transaction of {@code kind} for the Stripe object {@code ref}, with its entries in one currency. */
  static Future<Void> record(SqlClient tx, String kind, String ref, String currency, List<Entry> entries) {
    return tx.preparedQuery(OPEN).execute(Tuple.of(kind, ref)).map(rows -> rows.iterator().next().getLong(0))
        .compose(transaction -> {
          List<Tuple> batch = new ArrayList<>();
          entries.forEach(e -> batch.add(Tuple.of(transaction, e.account(), e.amount(), currency)));
          return tx.preparedQuery(ENTRY).executeBatch(batch);
        })
        .mapEmpty();
  }

  /** Reads the problems, the transaction count and the balances in one read-only snapshot. */
  static Future<Check> check(Pool pool) {
    return pool.withTransaction(tx -> tx.query(SNAPSHOT).execute()
        .compose(v -> tx.query(PROBLEMS).execute())
        .compose(problems -> tx.query(COUNT).execute()
            .compose(count -> tx.query(BALANCES).execute()
                .map(balances -> {
                  List<Problem> problemList = new ArrayList<>();
                  problems.forEach(p -> problemList.add(new Problem(p.getString(0), p.getString(1), p.getString(2))));
                  List<Balance> balanceList = new ArrayList<>();
                  balances.forEach(b -> balanceList.add(new Balance(b.getString(0), b.getString(1), b.getLong(2))));
                  return new Check(problemList, count.iterator().next().getLong(0), balanceList);
                }))));
  }
}
