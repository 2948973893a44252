package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Missed Stripe events are applied each on its own: one that cannot be applied holds back no other. */
@GatewayTest(settings = {
    "GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS=1"})
class ReconcilerTest {
  private static final Instant START = Instant.now().plus(8, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static TestGateway node;
  private static ApiClient heidi;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    heidi = ApiClient.signIn(node, "heidi");
  }

  @Test
  void anEventThatFailsIsCountedAndTheLaterOnesAreStillApplied() {
    ApiClient.webhooks(node, "drop"); // only the reconciler applies events here
    JsonObject broken = heidi.reserve("off_fra_a100_01", 1, START, 1, "checkout");
    JsonObject fine = heidi.reserve("off_nyc_h100_01", 1, START, 1, "checkout");
    String brokenPayment = broken.getJsonObject("payment").getString("id");
    // applying anything to this payment fails, as a bug or a bad row would
    node.sql("CREATE FUNCTION refuse_payment() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        + " RAISE EXCEPTION 'injected failure'; END $$");
    node.sql("CREATE TRIGGER refuse_payment BEFORE UPDATE ON payments FOR EACH ROW WHEN (OLD.id = '"
        + brokenPayment + "') EXECUTE FUNCTION refuse_payment()");
    double failuresBefore = failures();

    heidi.payByCheckout(broken, "4242424242424242");
    // its events are the older ones, so a chain of events would stop at them
    node.sql("UPDATE sandbox_stripe.events SET created = created - 60,"
        + " body = jsonb_set(body, '{created}', to_jsonb(created - 60))");
    heidi.payByCheckout(fine, "4242424242424242");

    heidi.awaitStatus(fine.getString("id"), "confirmed");
    assertEquals("pending_payment", heidi.json("/api/v1/reservations/" + broken.getString("id")).getString("status"));
    assertTrue(failures() > failuresBefore, "the failure is counted in gateway_reconcile_failures_total");

    node.sql("DROP TRIGGER refuse_payment ON payments");
    heidi.awaitStatus(broken.getString("id"), "confirmed");
    ApiClient.webhooks(node, "normal");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  private static double failures() {
    return node.gateway().metrics().counter("gateway.reconcile.failures").count();
  }
}
