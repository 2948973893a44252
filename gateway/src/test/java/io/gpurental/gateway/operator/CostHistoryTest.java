package io.gpurental.gateway.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Costs change over time and each period prices only its own hours. The range R is the 24 hours
 * [T0, T0 + 24 h), T0 two days ago; the host (1 GPU) was in the fleet all of R, nothing was booked.
 *
 * <pre>
 * Period 1, since the host joined: 20/kWh, PUE 1.0, colocation 73 000 a month (100 an hour),
 *   purchase 730 000 over 10 months (100 an hour of depreciation).
 * Period 2, from T0 + 6 h: 40/kWh, PUE 1.5, colocation 146 000 a month, 730 000 over 5 months.
 * Telemetry: hours 0-11 of R measured at 1 000 Wh each.
 *   energy  6 kWh × 1.0 × 20 = 120  +  6 kWh × 1.5 × 40 = 360   → 480 (facility 6 + 9 = 15 kWh)
 *   other   73 000 × 6/730 = 600     +  146 000 × 18/730 = 3 600 → 4 200
 *   depreciation 73 000 × 6/730 = 600 + 146 000 × 18/730 = 3 600 → 4 200;  net margin −8 880
 * With period 2's costs for all of R it would be energy 720, other 4 800, depreciation 4 800.
 * </pre>
 */
@GatewayTest(settings = {"GATEWAY_FLEET_OFFLINE_AFTER_MISSED=1000"})
class CostHistoryTest {
  private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(48, ChronoUnit.HOURS);
  private static final String RANGE = "from=" + T0 + "&to=" + T0.plus(24, ChronoUnit.HOURS) + "&group_by=host";
  private static TestGateway node;
  private static ApiClient operator;
  private static String hostId;

  @BeforeAll
  static void scenario(TestGateway gateway) {
    node = gateway;
    operator = ApiClient.signIn(node, "operator");
    hostId = FakeAgent.activeHost(node, operator, "NVIDIA H100 80GB HBM3", 1, 100).hostId();
    node.sql("UPDATE offers SET created_at = '" + T0.minus(24, ChronoUnit.HOURS) + "' WHERE host_id = '" + hostId + "'");
    for (int hour = 0; hour < 12; hour++) {
      node.sql("INSERT INTO host_telemetry_hourly (host_id, hour, samples, measured_samples, covered_seconds,"
          + " power_w_avg, energy_wh) VALUES ('" + hostId + "', '" + T0.plus(hour, ChronoUnit.HOURS)
          + "', 60, 60, 3600, 1000, 1000)");
    }
    assertEquals(200, putCosts(costs(20, "1.0", 73_000, 10)).statusCode());
    assertEquals(200, putCosts(costs(40, "1.5", 146_000, 5).put("effective_from",
        T0.plus(6, ChronoUnit.HOURS).toString())).statusCode());
  }

  @Test
  void eachCostPeriodPricesOnlyItsOwnHours() {
    JsonObject figures = figures();
    assertEquals(15.0, figures.getJsonObject("energy").getDouble("facility_kwh"));
    assertEquals(480, figures.getJsonObject("energy").getJsonObject("cost").getLong("amount"));
    assertEquals(4200, amount(figures, "other_costs"));
    assertEquals(4200, amount(figures, "depreciation"));
    assertEquals(-8880, amount(figures, "net_margin"));
    assertEquals(730_000, figures.getJsonObject("payback").getJsonObject("purchase_price").getLong("amount"));
  }

  @Test
  void aChangeNowNeverRepricesThePastAndTheHistoryIsKept() {
    JsonObject before = figures();
    Instant hourBefore = Instant.now().truncatedTo(ChronoUnit.HOURS);
    HttpResponse<String> change = putCosts(costs(90, "2.0", 500_000, 2));
    Instant hourAfter = Instant.now().truncatedTo(ChronoUnit.HOURS);
    assertEquals(200, change.statusCode(), change.body());
    JsonObject audited = audit("after->>'electricity_price_per_kwh' = '90'");
    assertEquals(T0.plus(6, ChronoUnit.HOURS).toString(), audited.getJsonObject("before").getString("effective_from"),
        "the audit's before is the period that was in effect");
    JsonObject current = new JsonObject(change.body());
    assertEquals(90, current.getLong("electricity_price_per_kwh"), "the change is in effect now");
    assertTrue(List.of(hourBefore.toString(), hourAfter.toString()).contains(current.getString("effective_from")),
        "from the current hour: " + current.getString("effective_from"));
    assertEquals(before, figures(), "R ended before the change");

    JsonArray history = operator.json("/api/v1/operator/hosts/" + hostId + "/costs").getJsonArray("history");
    assertEquals(3, history.size(), history.encodePrettily());
    assertEquals(T0.plus(6, ChronoUnit.HOURS).toString(), history.getJsonObject(1).getString("effective_from"));
    assertNull(history.getJsonObject(2).getValue("effective_from"), "the first costs apply since the host joined");
    assertEquals(20, history.getJsonObject(2).getLong("electricity_price_per_kwh"));
    assertTrue(node.sql("SELECT count(*) FROM audit_log WHERE action = 'host.costs_set' AND target = '" + hostId
        + "'").iterator().next().getLong(0) >= 3, "every period is audited");
  }

  @Test
  void correctingAPeriodReplacesItAndIsAuditedWithItsBefore() {
    String from = T0.plus(6, ChronoUnit.HOURS).toString();
    assertEquals(200, putCosts(costs(40, "1.5", 146_000, 5).put("effective_from", from)).statusCode());
    JsonObject entry = audit("after->>'effective_from' = '" + from + "'");
    assertEquals(from, entry.getJsonObject("before").getString("effective_from"), entry.encode());
    assertEquals(-8880, amount(figures(), "net_margin"), "the same period entered again changes nothing");
  }

  @Test
  void aNullStartCorrectsTheCostsSinceTheHostJoined() {
    HttpResponse<String> corrected = putCosts(costs(30, "1.0", 73_000, 10).putNull("effective_from"));
    assertEquals(200, corrected.statusCode(), corrected.body());
    // period 1's six hours now at 30/kWh: 6 kWh × 1.0 × 30 = 180 instead of 120
    assertEquals(540, figures().getJsonObject("energy").getJsonObject("cost").getLong("amount"));
    assertEquals(200, putCosts(costs(20, "1.0", 73_000, 10).putNull("effective_from")).statusCode());
    assertEquals(480, figures().getJsonObject("energy").getJsonObject("cost").getLong("amount"));
  }

  /**
   * A host with costs and no offer has no joining time: its figures to date are the range's
   * (colocation 73 000 × 24/730 = 2 400), not charged from the hour the fleet's first offer opened
   * (T0 − 24 h, this class's host: 4 800).
   */
  @Test
  void aHostWithoutAnOfferCountsOnlyTheRangeToDate() {
    String pending = FakeAgent.enrolledHost(node, operator, "NVIDIA L40S", 1).hostId();
    assertEquals(200, operator.put("/api/v1/operator/hosts/" + pending + "/costs", costs(20, "1.0", 73_000, 10)
        .put("purchase_price", 0)).statusCode());
    JsonObject figures = operator.json("/api/v1/operator/economics?" + RANGE).getJsonArray("data").stream()
        .map(o -> (JsonObject) o).filter(g -> pending.equals(g.getString("key"))).findFirst().orElseThrow();
    assertEquals(2400, amount(figures, "other_costs"));
    assertEquals(-2400, figures.getJsonObject("payback").getJsonObject("contribution_to_date").getLong("amount"));
  }

  /** First costs entered from T0 + 12 h: the 12 hours before carry none, and a note says so. */
  @Test
  void hoursBeforeTheFirstCostPeriodAreNamedInTheNotes() {
    String late = FakeAgent.enrolledHost(node, operator, "NVIDIA L40S", 1).hostId();
    assertEquals(200, operator.put("/api/v1/operator/hosts/" + late + "/costs", costs(20, "1.0", 73_000, 10)
        .put("purchase_price", 0).put("effective_from", T0.plus(12, ChronoUnit.HOURS).toString())).statusCode());
    JsonObject figures = operator.json("/api/v1/operator/economics?" + RANGE).getJsonArray("data").stream()
        .map(o -> (JsonObject) o).filter(g -> late.equals(g.getString("key"))).findFirst().orElseThrow();
    assertEquals(1200, amount(figures, "other_costs"), "12 of the 24 hours costed");
    assertTrue(figures.getJsonArray("notes").encode().contains("12.0 host-hours come before the host's first cost"
        + " period"), figures.getJsonArray("notes").encode());
    assertTrue(figures().getJsonArray("notes").stream().noneMatch(n -> n.toString().contains("first cost period")),
        "a host costed since it joined has no such note");
  }

  /** The latest host.costs_set entry of this host matching {@code where}, as {"before", "after"}. */
  private static JsonObject audit(String where) {
    return new JsonObject(node.sql("SELECT json_build_object('before', before, 'after', after)::text FROM audit_log"
        + " WHERE action = 'host.costs_set' AND target = '" + hostId + "' AND " + where + " ORDER BY id DESC LIMIT 1")
        .iterator().next().getString(0));
  }

  @Test
  void aFutureOrUnevenStartIsRefused() {
    HttpResponse<String> future = putCosts(costs(20, "1.0", 1, 10).put("effective_from",
        Instant.now().truncatedTo(ChronoUnit.HOURS).plus(2, ChronoUnit.HOURS).toString()));
    assertEquals(400, future.statusCode(), future.body());
    assertTrue(future.body().contains("current hour or a past one"), future.body());
    HttpResponse<String> uneven = putCosts(costs(20, "1.0", 1, 10).put("effective_from", T0.plusSeconds(60).toString()));
    assertEquals(400, uneven.statusCode(), uneven.body());
    assertTrue(uneven.body().contains("whole hour"), uneven.body());
  }

  private static JsonObject costs(long perKwh, String pue, long colocation, int months) {
    return new JsonObject().put("currency", "usd").put("purchase_price", 730_000).put("depreciation_months", months)
        .put("electricity_price_per_kwh", perKwh).put("pue", Double.parseDouble(pue))
        .put("colocation_per_month", colocation);
  }

  private static HttpResponse<String> putCosts(JsonObject body) {
    return operator.put("/api/v1/operator/hosts/" + hostId + "/costs", body);
  }

  private static JsonObject figures() {
    return operator.json("/api/v1/operator/economics?" + RANGE).getJsonArray("data").stream()
        .map(o -> (JsonObject) o).filter(g -> hostId.equals(g.getString("key"))).findFirst().orElseThrow();
  }

  private static long amount(JsonObject group, String field) {
    return group.getJsonObject(field).getLong("amount");
  }

}
