package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.Gateway;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Cluster jobs prune what is kept only for a while: Idempotency-Keys after 24 h, Stripe events after the lookback. */
@GatewayTest
class HousekeepingTest {
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  void idempotencyKeysOlderThanADayArePruned() {
    ApiClient.signIn(node, "keeper");
    String account = node.sql("SELECT id FROM accounts ORDER BY created_at DESC LIMIT 1").iterator().next().getString(0);
    node.sql("INSERT INTO idempotency_keys (account_id, key, request_hash, created_at) VALUES"
        + " ('" + account + "', 'old', 'h', now() - interval '25 hours'),"
        + " ('" + account + "', 'recent', 'h', now() - interval '23 hours')");

    TestGateway.await(node.gateway().jobs().runNow(Gateway.PRUNE_IDEMPOTENCY_KEYS));

    assertEquals(List.of("recent"), column("SELECT key FROM idempotency_keys WHERE account_id = '" + account + "'"));
  }

  @Test
  void stripeEventsOlderThanTheLookbackAndADayArePruned() {
    long lookbackHours = node.gateway().config().stripe().reconcileLookback().toHours();
    node.sql("INSERT INTO stripe_events (id, type, received_at) VALUES"
        + " ('evt_old', 'payment_intent.succeeded', now() - interval '" + (lookbackHours + 25) + " hours'),"
        + " ('evt_within_margin', 'payment_intent.succeeded', now() - interval '" + (lookbackHours + 23) + " hours'),"
        + " ('evt_recent', 'payment_intent.succeeded', now())");

    TestGateway.await(node.gateway().jobs().runNow(Gateway.PRUNE_STRIPE_EVENTS));

    assertEquals(List.of("evt_recent", "evt_within_margin"),
        column("SELECT id FROM stripe_events WHERE id IN ('evt_old', 'evt_within_margin', 'evt_recent') ORDER BY id"));
  }

  private static List<String> column(String query) {
    List<String> values = new ArrayList<>();
    node.sql(query).forEach(row -> values.add(row.getString(0)));
    return values;
  }
}
