package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;

/**
 * A reservation of 2 GPUs for 2 hours on a fake agent's host at 2.50 $ per GPU-hour: 10.00 $ of
 * GPU hours plus the 3 % platform fee, 10.30 $ paid, so one hour is worth 5.15 $ (515 cents).
 */
final class GuaranteeBookings {
  static final long PAID = 1030;
  static final long ONE_HOUR = 515;

  private GuaranteeBookings() {}

  /** The reservation, provisioning, and the Unix user its instance runs as. */
  record Booked(String id, String user) {}

  static Booked provisioning(TestGateway node, FakeAgent agent, ApiClient operator, ApiClient renter) {
    renter.saveCard("4242424242424242");
    String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
    assertEquals(200, agent.heartbeat().statusCode());
    JsonObject created = renter.reserve(offerId, 2, null, 2, "saved_card");
    String id = created.getString("id");
    assertEquals(PAID, created.getJsonObject("price").getJsonObject("total").getLong("amount"), created.encode());
    renter.awaitStatus(id, "provisioning");
    // provisioning is committed before the scheduler hands the instance to the host
    JsonObject instance = Eventually.eventually("the instance in the host's desired state",
        () -> agent.desiredStateNow().getJsonArray("instances").stream().map(JsonObject.class::cast)
            .filter(i -> id.equals(i.getString("id"))).findFirst(), java.util.Optional::isPresent).orElseThrow();
    return new Booked(id, instance.getString("user"));
  }

  /** Sum of the ledger's refund transactions for the reservation's refunds of {@code reason}. */
  static long ledgerRefunds(TestGateway node, String reservationId, String reason) {
    return node.sql("SELECT coalesce(sum(e.amount), 0) FROM ledger_entries e JOIN ledger_transactions t"
        + " ON t.id = e.transaction_id JOIN refunds f ON f.stripe_refund_id = t.ref JOIN payments p ON p.id = f.payment_id"
        + " WHERE t.kind = 'refund' AND e.account = 'contra_revenue:refunds' AND p.reservation_id = '" + reservationId
        + "' AND f.reason = '" + reason + "'").iterator().next().getLong(0);
  }
}
