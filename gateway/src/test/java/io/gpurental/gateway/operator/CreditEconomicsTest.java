package io.gpurental.gateway.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every kind of money given back is counted once in the economics, as a credit or as a refund,
 * from both contra-revenue accounts. Hand-computed, to the cent:
 *
 * <pre>
 * Host  H100 × 4 at its own site, 250/GPU-hour, no costs entered, no telemetry.
 *   R  2 GPUs × 2 h from now: 1 000 + 3 % fee 30 = 1 030 paid; Stripe fee 29.87→30 + 30 = 60.
 *      Ready 30 min after it was due (deadline 10 min): ready credit, 1 started hour of 2 = 515.
 *      The operator's manual credit (goodwill, contra_revenue:credits): 200.
 *      The operator's manual refund (contra_revenue:refunds): 100.
 *   revenue 1 030; credits 515 + 200 = 715; refunds 100; refunds and credits 815; card fees 60
 *   net margin 1 030 − 100 − 715 − 60 = 155 (no energy, costs or depreciation entered)
 * </pre>
 */
@GatewayTest(settings = {"GATEWAY_FLEET_OFFLINE_AFTER_MISSED=1000", "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200"})
class CreditEconomicsTest {
  @Test
  void readyAndManualCreditsAreCreditsAndAManualRefundIsARefund(TestGateway node) {
    ApiClient operator = ApiClient.signIn(node, "operator");
    FakeAgent agent = FakeAgent.activeHost(node, operator, "NVIDIA H100 80GB HBM3", 4, 250);
    assertEquals(200, agent.heartbeat().statusCode());
    String offer = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
    ApiClient renter = ApiClient.signIn(node, "credit-econ-renter");
    renter.saveCard("4242424242424242");
    JsonObject created = renter.reserve(offer, 2, null, 2, "saved_card");
    String id = created.getString("id");
    assertEquals(1030, created.getJsonObject("price").getJsonObject("total").getLong("amount"), created.encode());
    renter.awaitStatus(id, "provisioning");
    String user = Eventually.eventually("the instance in the host's desired state",
        () -> agent.desiredStateNow().getJsonArray("instances").stream().map(JsonObject.class::cast)
            .filter(i -> id.equals(i.getString("id"))).findFirst(), Optional::isPresent).orElseThrow().getString("user");

    node.sql("UPDATE reservations SET due_at = now() - interval '30 minutes' WHERE id = '" + id + "'");
    assertEquals(204, agent.report(id, FakeAgent.running(user, 22031)).statusCode());
    manual(operator, id, "credit", 200, "GPU throttled");
    manual(operator, id, "refund", 100, "one hour not needed");
    Eventually.eventually("the three refunds and the card fee are in the ledger", () -> node.sql(
        "SELECT (SELECT count(*) FROM ledger_transactions WHERE kind = 'refund')"
            + " + (SELECT count(*) FROM ledger_transactions WHERE kind = 'card_fee')").iterator().next().getLong(0),
        n -> n == 4);
    assertEquals("ready_credit", node.sql("SELECT string_agg(reason, ',') FROM refunds WHERE reason <> 'operator'")
        .iterator().next().getString(0));

    Instant from = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(1, ChronoUnit.HOURS);
    JsonObject report = operator.json("/api/v1/operator/economics?from=" + from + "&to=" + from.plus(24, ChronoUnit.HOURS)
        + "&group_by=host");
    JsonObject group = report.getJsonArray("data").stream().map(JsonObject.class::cast)
        .filter(g -> agent.hostId().equals(g.getString("key"))).findFirst().orElseThrow(() -> new AssertionError(report.encodePrettily()));
    assertEquals(1030, amount(group, "revenue"));
    assertEquals(715, amount(group, "credits"), group.encodePrettily());
    assertEquals(100, amount(group, "refunds"));
    assertEquals(815, amount(group, "refunds_and_credits"));
    assertEquals(60, amount(group, "card_fees"));
    assertEquals(155, amount(group, "net_margin"));
    // what the ledger holds in both contra-revenue accounts is what the economics gave back
    assertEquals(815L, node.sql("SELECT sum(amount) FROM ledger_entries WHERE account LIKE 'contra_revenue:%'")
        .iterator().next().getLong(0));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  private static void manual(ApiClient operator, String id, String kind, long amount, String reason) {
    HttpResponse<String> posted = operator.post("/api/v1/operator/reservations/" + id + "/refunds", new JsonObject()
        .put("amount", amount).put("currency", "usd").put("kind", kind).put("reason", reason), UUID.randomUUID().toString());
    assertEquals(201, posted.statusCode(), posted.body());
  }


  private static long amount(JsonObject group, String field) {
    return group.getJsonObject(field).getLong("amount");
  }
}
