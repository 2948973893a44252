package io.gpurental.gateway.testing;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/** Confirmed bookings written straight into PostgreSQL, for tests about what they block. */
public final class TestBookings {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private TestBookings() {}

  /** Books the first {@code gpus} GPUs of the host (by index) for [from, to). */
  public static void book(TestGateway node, String hostId, int gpus, Instant from, Instant to) {
    String id = "rsv_test" + COUNTER.incrementAndGet();
    node.sql("INSERT INTO accounts (id, display_name) VALUES ('acc_test_bookings', 'Test bookings')"
        + " ON CONFLICT DO NOTHING");
    node.sql("INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count, period, status, quote_id, price,"
        + " total_amount, currency, ssh_public_key, ssh_fingerprint, payment_method)"
        + " SELECT '" + id + "', 'acc_test_bookings', o.id, o.host_id, " + gpus + ", tstzrange('" + from + "', '" + to
        + "'), 'confirmed', 'quo_test', '{}', 0, 'usd', 'ssh-ed25519 AAAA test', 'SHA256:test', 'checkout'"
        + " FROM offers o WHERE o.host_id = '" + hostId + "'");
    node.sql("INSERT INTO reservation_gpus (reservation_id, gpu_id, period) SELECT '" + id + "', id, tstzrange('"
        + from + "', '" + to + "') FROM gpus WHERE host_id = '" + hostId + "' ORDER BY idx LIMIT " + gpus);
  }
}
