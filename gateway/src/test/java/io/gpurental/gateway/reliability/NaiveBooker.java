package io.gpurental.gateway.reliability;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A deliberately broken booking path, test-only: it drops the exclusion constraint and books by
 * check-then-insert (count the overlapping active rows, insert when there are none), the race
 * the constraint exists to close. The bookers all check before any inserts (a barrier between
 * the two), so every one of them sees the GPU free: the race happens every time, not by luck.
 */
final class NaiveBooker {
  private static final String DROP_EXCLUSION = """
      DO $$ DECLARE c text; BEGIN
        SELECT conname INTO c FROM pg_constraint WHERE conrelid = 'reservation_gpus'::regclass AND contype = 'x';
        EXECUTE 'ALTER TABLE reservation_gpus DROP CONSTRAINT ' || quote_ident(c);
      END $$""";
  private static final String CHECK = "SELECT count(*) FROM reservation_gpus WHERE gpu_id = ? AND active"
      + " AND period && tstzrange(?::timestamptz, ?::timestamptz)";
  private static final String RESERVE = "INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count,"
      + " period, status, quote_id, price, total_amount, currency, ssh_public_key, ssh_fingerprint, payment_method)"
      + " SELECT ?, 'acc_naive', o.id, o.host_id, 1, tstzrange(?::timestamptz, ?::timestamptz), 'confirmed',"
      + " 'quo_naive', '{}', 0, 'usd', 'ssh-ed25519 AAAA naive', 'SHA256:naive', 'checkout'"
      + " FROM offers o JOIN gpus g ON g.host_id = o.host_id WHERE g.id = ?";
  private static final String HOLD = "INSERT INTO reservation_gpus (reservation_id, gpu_id, period)"
      + " VALUES (?, ?, tstzrange(?::timestamptz, ?::timestamptz))";

  private NaiveBooker() {}

  /** Removes the one guard against double booking from the cluster's (scratch) database. */
  static void dropExclusionConstraint(GatewayCluster cluster) {
    cluster.execute(DROP_EXCLUSION);
    cluster.execute("INSERT INTO accounts (id, display_name) VALUES ('acc_naive', 'Naive') ON CONFLICT DO NOTHING");
  }

  /** {@code bookers} clients book one GPU for [from, to) at once; returns how many believed they got it. */
  static int race(GatewayCluster cluster, int bookers, String gpuId, Instant from, Instant to) throws Exception {
    CyclicBarrier allChecked = new CyclicBarrier(bookers);
    // a thread per booker: all must be checking at once for the barrier to open
    ExecutorService threads = Executors.newFixedThreadPool(bookers);
    try {
      List<CompletableFuture<Boolean>> tries = new ArrayList<>();
      for (int i = 0; i < bookers; i++) {
        String id = "rsv_naive_" + i + "_" + from.getEpochSecond();
        tries.add(CompletableFuture.supplyAsync(() -> book(cluster, allChecked, id, gpuId, from, to), threads));
      }
      int booked = 0;
      for (CompletableFuture<Boolean> booking : tries) {
        booked += booking.get(60, TimeUnit.SECONDS) ? 1 : 0;
      }
      return booked;
    } finally {
      threads.shutdownNow();
    }
  }

  private static boolean book(GatewayCluster cluster, CyclicBarrier allChecked, String id, String gpuId, Instant from,
      Instant to) {
    try (Connection connection = cluster.connection()) {
      connection.setAutoCommit(false);
      boolean free;
      try (PreparedStatement check = connection.prepareStatement(CHECK)) {
        check.setString(1, gpuId);
        check.setString(2, from.toString());
        check.setString(3, to.toString());
        try (ResultSet row = check.executeQuery()) {
          row.next();
          free = row.getLong(1) == 0;
        }
      }
      allChecked.await(30, TimeUnit.SECONDS);
      if (free) {
        try (PreparedStatement reserve = connection.prepareStatement(RESERVE);
            PreparedStatement hold = connection.prepareStatement(HOLD)) {
          reserve.setString(1, id);
          reserve.setString(2, from.toString());
          reserve.setString(3, to.toString());
          reserve.setString(4, gpuId);
          reserve.executeUpdate();
          hold.setString(1, id);
          hold.setString(2, gpuId);
          hold.setString(3, from.toString());
          hold.setString(4, to.toString());
          hold.executeUpdate();
        }
      }
      connection.commit();
      return free;
    } catch (SQLException e) {
      throw new IllegalStateException("naive booking " + id + " failed", e);
    } catch (Exception e) {
      throw new IllegalStateException("naive booking " + id + " did not meet the others", e);
    }
  }

  /** The id of one GPU of the demo fleet. */
  static String anyGpu(GatewayCluster cluster) {
    try (Connection connection = cluster.connection(); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT id FROM gpus ORDER BY id LIMIT 1")) {
      row.next();
      return row.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
