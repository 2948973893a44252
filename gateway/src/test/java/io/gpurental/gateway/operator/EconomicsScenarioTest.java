package io.gpurental.gateway.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Economics on a fixed scenario, every figure hand-computed to the cent. The range R is the 24
 * whole hours [T0, T0 + 24 h), T0 two days ahead (offers are open all of R). Pricing: platform
 * fee 3 % (half up), no tax, no duration discount under 24 h; Stripe's fee 2.9 % (half up) + 30¢.
 *
 * <pre>
 * Host A  H100 SXM × 4, own site, 250/GPU-hour.  Costs: purchase 25 000 000, residual 5 000 000,
 *         40 months; 20/kWh, PUE 1.5; colocation 146 000 + bandwidth 7 300 + maintenance 14 600
 *         + financing 29 200 = 197 100 a month.
 *   R1  2 GPUs × 5 h from T0+2h:  2 500 + fee 75 = 2 575 paid; Stripe fee 74.675→75 + 30 = 105
 *   R2  1 GPU × 8 h from T0+20h:  2 000 + fee 60 = 2 060 paid; Stripe fee 59.74→60 + 30 = 90;
 *       4 of its 8 hours are in R: revenue 1 030, fee 45 count
 *   Telemetry: 20 hours of 2 500 Wh, all samples measured; one hour estimated (not counted);
 *   3 hours none. → 50 kWh IT, × 1.5 = 75 kWh, × 20 = 1 500; covered 20 h, missing 4 h.
 *   available 4 × 24 = 96; booked 2 × 5 + 1 × 4 = 14; utilization 14/96 = 1 458 bps
 *   revenue 2 575 + 1 030 = 3 605; card fees 105 + 45 = 150; effective rate 3 605/14 = 257.5→258
 *   other costs 197 100 × 24/730 = 6 480; depreciation 20 000 000 × 24/(40 × 730) = 16 438.36→16 438
 *   net margin 3 605 − 150 − 1 500 − 6 480 − 16 438 = −20 963; margin −20 963/3 605 = −58 150 bps
 *   break-even utilization 14 × 24 568 / (96 × 3 605) = 9 939 bps (costs 24 568)
 *   payback contribution −20 963 + 16 438 = −4 525, progress −4 525/25 000 000 = −2 bps
 *   to date: its offer opened at T0 − 48 h, so 72 h to R's end: other costs 197 100 × 72/730 = 19 440,
 *   contribution 3 605 − 150 − 1 500 − 19 440 = −17 485, progress −6.994→−7 bps; no payback at a loss
 *   break-even price 24 568/14 = 1 754.86→1 755; at a 3 000 bps margin 24 568/(14 × 0.7) = 2 506.9→2 507
 * Host B  L40S × 2, own site, 100/GPU-hour.  Costs: purchase 1 000 000, no residual, 36 months;
 *         20/kWh, PUE 1.2; colocation 36 500 a month. No telemetry at all.
 *   R3  1 GPU × 3 h from T0+4h: 300 + fee 9 = 309; Stripe fee 8.961→9 + 30 = 39; cancelled
 *       before its start: 309 refunded, Stripe keeps its fee.
 *   available 48; booked 0; revenue 309; refunds 309; card fees 39; energy unknown (24 h missing)
 *   other 36 500 × 24/730 = 1 200; depreciation 1 000 000 × 24/(36 × 730) = 913.24→913
 *   net −2 152; margin −2 152/309 = −69 644 bps; contribution −1 239, progress −12 bps
 * </pre>
 */
@GatewayTest(settings = {"GATEWAY_FLEET_OFFLINE_AFTER_MISSED=1000"})
class EconomicsScenarioTest {
  private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.HOURS).plus(48, ChronoUnit.HOURS);
  private static final String RANGE = "from=" + T0 + "&to=" + T0.plus(24, ChronoUnit.HOURS);
  private static TestGateway node;
  private static ApiClient operator;
  private static String hostA;
  private static String hostB;
  private static String siteA;

  @BeforeAll
  static void scenario(TestGateway gateway) {
    node = gateway;
    operator = ApiClient.signIn(node, "operator");
    hostA = FakeAgent.activeHost(node, operator, "NVIDIA H100 80GB HBM3", 4, 250).hostId();
    siteA = operator.json("/api/v1/operator/hosts/" + hostA).getString("site_id");
    hostB = FakeAgent.activeHost(node, operator, "NVIDIA L40S", 2, 100).hostId();
    // host A joined at the start of this hour (T0 − 48 h), so its to-date hours are whole
    node.sql("UPDATE offers SET created_at = '" + T0.minus(48, ChronoUnit.HOURS) + "' WHERE host_id = '" + hostA + "'");
    putCosts(hostA, new JsonObject().put("purchase_price", 25_000_000).put("residual_value", 5_000_000)
        .put("depreciation_months", 40).put("electricity_price_per_kwh", 20).put("pue", 1.5)
        .put("colocation_per_month", 146_000).put("bandwidth_per_month", 7_300).put("maintenance_per_month", 14_600)
        .put("financing_per_month", 29_200));
    putCosts(hostB, new JsonObject().put("purchase_price", 1_000_000).put("depreciation_months", 36)
        .put("electricity_price_per_kwh", 20).put("pue", 1.2).put("colocation_per_month", 36_500));

    ApiClient renter = ApiClient.signIn(node, "econ-renter");
    renter.saveCard("4242424242424242");
    assertTotal(renter.reserve(offer(hostA), 2, T0.plus(2, ChronoUnit.HOURS), 5, "saved_card"), 2575);
    assertTotal(renter.reserve(offer(hostA), 1, T0.plus(20, ChronoUnit.HOURS), 8, "saved_card"), 2060);
    JsonObject r3 = renter.reserve(offer(hostB), 1, T0.plus(4, ChronoUnit.HOURS), 3, "saved_card");
    assertTotal(r3, 309);
    HttpResponse<String> cancelled = renter.post("/api/v1/reservations/" + r3.getString("id") + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    Eventually.eventually("the refund and every card fee are in the ledger", () -> node.sql(
        "SELECT (SELECT count(*) FROM ledger_transactions WHERE kind = 'refund')"
            + " + (SELECT count(*) FROM ledger_transactions WHERE kind = 'card_fee')").iterator().next().getLong(0),
        n -> n == 4);

    for (int hour = 0; hour < 20; hour++) {
      telemetry(hostA, hour, 60, 2500);
    }
    telemetry(hostA, 20, 0, 2500); // estimated power only: not counted
  }

  @Test
  void perHostFiguresMatchTheHandComputedOnesToTheCent() {
    JsonObject report = operator.json("/api/v1/operator/economics?" + RANGE + "&group_by=host");
    assertEquals(24.0, report.getDouble("range_hours"));
    JsonObject a = group(report, hostA);
    assertEquals(96.0, a.getDouble("available_gpu_hours"));
    assertEquals(14.0, a.getDouble("booked_gpu_hours"));
    assertEquals(1458, a.getInteger("utilization_bps"));
    assertEquals(250, amount(a, "list_price"));
    assertEquals(258, amount(a, "effective_rate"));
    assertEquals(3605, amount(a, "revenue"));
    assertEquals(0, amount(a, "refunds_and_credits"));
    assertEquals(150, amount(a, "card_fees"));
    JsonObject energy = a.getJsonObject("energy");
    assertEquals(50.0, energy.getDouble("it_kwh"));
    assertEquals(75.0, energy.getDouble("facility_kwh"));
    assertEquals(1500, energy.getJsonObject("cost").getLong("amount"));
    assertEquals(20.0, energy.getDouble("covered_hours"));
    assertEquals(4.0, energy.getDouble("missing_hours"));
    assertTrue(a.getJsonArray("notes").getString(0).contains("energy for the other 4.0 host-hours is unknown"),
        a.encodePrettily());
    assertEquals(6480, amount(a, "other_costs"));
    assertEquals(16438, amount(a, "depreciation"));
    assertEquals(-20963, amount(a, "net_margin"));
    assertEquals(-58150, a.getInteger("margin_bps"));
    assertEquals(9939, a.getInteger("break_even_utilization_bps"));
    assertEquals(-4525, a.getJsonObject("payback").getJsonObject("contribution").getLong("amount"));
    assertEquals(-2, a.getJsonObject("payback").getInteger("progress_bps"));
    assertEquals(-17485, a.getJsonObject("payback").getJsonObject("contribution_to_date").getLong("amount"));
    assertEquals(-7, a.getJsonObject("payback").getInteger("progress_to_date_bps"));
    assertNull(a.getJsonObject("payback").getValue("months_to_payback"), "no payback at a loss");

    JsonObject b = group(report, hostB);
    assertEquals(48.0, b.getDouble("available_gpu_hours"));
    assertEquals(0.0, b.getDouble("booked_gpu_hours"));
    assertEquals(0, b.getInteger("utilization_bps"));
    assertNull(b.getValue("effective_rate"));
    assertEquals(309, amount(b, "revenue"));
    assertEquals(309, amount(b, "refunds"));
    assertEquals(39, amount(b, "card_fees"), "Stripe keeps the fee of a refunded charge");
    assertEquals(0, b.getJsonObject("energy").getJsonObject("cost").getLong("amount"));
    assertEquals(24.0, b.getJsonObject("energy").getDouble("missing_hours"));
    assertEquals(1200, amount(b, "other_costs"));
    assertEquals(913, amount(b, "depreciation"));
    assertEquals(-2152, amount(b, "net_margin"));
    assertEquals(-69644, b.getInteger("margin_bps"));
    assertNull(b.getValue("break_even_utilization_bps"));
    assertEquals(-12, b.getJsonObject("payback").getInteger("progress_bps"));
  }

  @Test
  void groupsAddUpAndReconcileWithTheLedger() {
    JsonObject site = group(operator.json("/api/v1/operator/economics?" + RANGE + "&group_by=site"), siteA);
    assertEquals(-20963, amount(site, "net_margin"), "host A is alone at its site");
    JsonObject fleet = operator.json("/api/v1/operator/economics?" + RANGE).getJsonArray("data").getJsonObject(0);
    assertEquals("fleet", fleet.getString("key"));
    assertEquals(3605 + 309, amount(fleet, "revenue"));
    assertEquals(150 + 39, amount(fleet, "card_fees"));
    // the ledger: all revenue of the three charges, the one refund, all fees (R2's second half is after R)
    assertEquals(2575 + 2060 + 309, -ledger("revenue:%"));
    assertEquals(309, ledger("contra_revenue:refunds"));
    assertEquals(105 + 90 + 39, ledger("expense:card_fees"));
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());

    JsonObject byModel = operator.json("/api/v1/operator/economics?" + RANGE + "&group_by=gpu_model");
    long revenue = 0;
    for (Object g : byModel.getJsonArray("data")) {
      revenue += amount((JsonObject) g, "revenue");
    }
    assertEquals(3605 + 309, revenue);
    JsonArray series = byModel.getJsonArray("series");
    assertEquals(1, series.size(), "one day");
    assertEquals(fleet.getDouble("available_gpu_hours"), series.getJsonObject(0).getDouble("available_gpu_hours"));
    assertEquals(14.0, series.getJsonObject(0).getDouble("booked_gpu_hours"));
    assertEquals(3605 + 309 - 309, series.getJsonObject(0).getJsonObject("net_revenue").getLong("amount"));
  }

  @Test
  void csvSaysTheSameAsJson() {
    JsonArray groups = operator.json("/api/v1/operator/economics?" + RANGE + "&group_by=host").getJsonArray("data");
    HttpResponse<String> csv = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/operator/economics?"
        + RANGE + "&group_by=host"))).header("Authorization", "Bearer " + operator.token())
        .header("Accept", "text/csv"));
    assertEquals(200, csv.statusCode(), csv.body());
    assertTrue(csv.headers().firstValue("Content-Type").orElse("").startsWith("text/csv"));
    List<String> lines = csv.body().lines().toList();
    List<String> header = List.of(lines.get(0).split(","));
    assertEquals(groups.size() + 1, lines.size());
    assertTrue(header.contains("energy.missing_hours") && header.contains("net_margin"), header.toString());
    for (int row = 0; row < groups.size(); row++) {
      List<String> cells = cells(lines.get(row + 1));
      JsonObject group = groups.getJsonObject(row);
      for (int i = 0; i < header.size() - 1; i++) {
        assertEquals(flat(group, header.get(i)), cells.get(i), header.get(i) + " of " + group.getString("key"));
      }
      assertEquals("usd", cells.get(header.size() - 1));
    }
    HttpResponse<String> link = operator.get("/api/v1/operator/economics?" + RANGE + "&group_by=host&format=csv");
    assertEquals(csv.body(), link.body(), "the download link's ?format=csv answers the same");
  }

  @Test
  void priceSuggestionsFollowFromTheCosts() {
    JsonObject suggestions = operator.json("/api/v1/operator/price-suggestions?" + RANGE + "&target_margin_bps=3000");
    JsonObject a = suggestions.getJsonArray("data").stream().map(o -> (JsonObject) o)
        .filter(s -> hostA.equals(s.getString("host_id"))).findFirst().orElseThrow();
    assertEquals(24568, a.getJsonObject("costs").getLong("amount"));
    assertEquals(1755, a.getJsonObject("break_even_price").getLong("amount"));
    assertEquals(2507, a.getJsonObject("target_price").getLong("amount"));
    assertEquals(250, a.getJsonObject("list_price").getLong("amount"));
    assertEquals(688, a.getJsonObject("reference_prices").getJsonObject("hyperscaler").getLong("amount"));
    assertEquals(210, a.getJsonObject("reference_prices").getJsonObject("specialized").getLong("amount"));
    JsonObject b = suggestions.getJsonArray("data").stream().map(o -> (JsonObject) o)
        .filter(s -> hostB.equals(s.getString("host_id"))).findFirst().orElseThrow();
    assertNull(b.getValue("break_even_price"), "no booked hours: no price covers the costs");
    assertTrue(b.getJsonArray("notes").encode().contains("No GPU-hours were booked"), b.encode());
  }

  @Test
  void costsAreValidatedAuditedAndForOperatorsOnly() {
    JsonObject costs = operator.json("/api/v1/operator/hosts/" + hostA + "/costs");
    assertEquals(1.5, costs.getDouble("pue"));
    assertEquals(29_200, costs.getLong("financing_per_month"));
    assertEquals(2L, node.sql("SELECT count(*) FROM audit_log WHERE action = 'host.costs_set'").iterator().next()
        .getLong(0));
    JsonObject valid = new JsonObject().put("currency", "usd").put("purchase_price", 100).put("depreciation_months", 12)
        .put("electricity_price_per_kwh", 20).put("pue", 1.2);
    assertEquals(400, put(hostA, valid.copy().put("pue", 0.9)).statusCode(), "PUE below 1");
    assertEquals(400, put(hostA, valid.copy().put("residual_value", 101)).statusCode(), "residual above purchase");
    assertEquals(400, put(hostA, valid.copy().put("currency", "eur")).statusCode(), "not the gateway's currency");
    assertEquals(400, put(hostA, valid.copy().put("surprise", 1)).statusCode(), "unknown field");
    assertEquals(404, put("host_nope", valid).statusCode());
    assertEquals(404, operator.get("/api/v1/operator/hosts/host_nope/costs").statusCode());
    HttpResponse<String> badRange = operator.get("/api/v1/operator/economics?from=" + T0 + "&to=" + T0);
    assertEquals(400, badRange.statusCode(), badRange.body());
    assertTrue(badRange.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
    assertEquals(400, operator.get("/api/v1/operator/economics?from=" + T0.plusSeconds(60) + "&to="
        + T0.plus(1, ChronoUnit.DAYS)).statusCode(), "not a whole hour");
    assertEquals(400, operator.get("/api/v1/operator/economics?from=" + T0.minus(401, ChronoUnit.DAYS) + "&to="
        + T0).statusCode(), "more than 400 days");
    assertEquals(400, operator.get("/api/v1/operator/economics?from=yesterday").statusCode());
    assertEquals(400, operator.get("/api/v1/operator/economics?group_by=planet").statusCode());
    ApiClient renter = ApiClient.signIn(node, "econ-nosy");
    assertEquals(403, renter.get("/api/v1/operator/economics").statusCode());
    assertEquals(403, renter.get("/api/v1/operator/price-suggestions").statusCode());
    assertEquals(403, renter.get("/api/v1/operator/hosts/" + hostA + "/costs").statusCode());
  }

  /**
   * A range that began before host B's offer opened (it opened when this class set it up): its
   * monthly costs and depreciation count only for the hours it was in the fleet, not for the whole
   * range, so a host enrolled yesterday does not carry a month of costs in a 30-day report.
   */
  @Test
  void costsCountOnlyFromTheHourAHostJoinedTheFleet() {
    Instant from = T0.minus(72, ChronoUnit.HOURS);
    JsonObject b = group(operator.json("/api/v1/operator/economics?from=" + from + "&to=" + T0.plus(24, ChronoUnit.HOURS)
        + "&group_by=host"), hostB);
    double inService = b.getDouble("available_gpu_hours") / 2;
    // from when its offer really opened: in the hour after T0 − 48 h if the hour turned meanwhile
    Instant opened = node.sql("SELECT created_at FROM offers WHERE host_id = '" + hostB + "'").iterator().next()
        .getOffsetDateTime(0).toInstant();
    double sinceOpened = java.time.Duration.between(opened, T0.plus(24, ChronoUnit.HOURS)).toMillis() / 3_600_000.0;
    assertTrue(sinceOpened < 72, "opened after the range began: " + opened);
    assertEquals(sinceOpened, inService, 0.01, "counted from its opening, not the range's start");
    assertEquals(Math.round(36_500 * inService / 730), amount(b, "other_costs"), b.encodePrettily());
    assertEquals(Math.round(1_000_000 * inService / (36 * 730)), amount(b, "depreciation"));
  }

  private static String offer(String hostId) {
    return operator.json("/api/v1/operator/hosts/" + hostId).getJsonArray("offers").getString(0);
  }

  private static void putCosts(String hostId, JsonObject costs) {
    HttpResponse<String> put = put(hostId, costs.put("currency", "usd"));
    assertEquals(200, put.statusCode(), put.body());
  }

  private static HttpResponse<String> put(String hostId, JsonObject body) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/operator/hosts/" + hostId + "/costs")))
        .header("Authorization", "Bearer " + operator.token()).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body.encode())));
  }

  private static void assertTotal(JsonObject reservation, long total) {
    assertEquals(total, reservation.getJsonObject("price").getJsonObject("total").getLong("amount"),
        reservation.encodePrettily());
    assertEquals("confirmed", reservation.getString("status"));
  }

  /** One hourly roll-up, written as the fleet's job would; {@code measured} of 60 samples came from the BMC. */
  private static void telemetry(String hostId, int hour, int measured, double wh) {
    node.sql("INSERT INTO host_telemetry_hourly (host_id, hour, samples, measured_samples, covered_seconds,"
        + " power_w_avg, energy_wh) VALUES ('" + hostId + "', '" + T0.plus(hour, ChronoUnit.HOURS) + "', 60, "
        + measured + ", 3600, " + wh + ", " + wh + ")");
  }

  private static long ledger(String account) {
    return node.sql("SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE account LIKE '" + account + "'")
        .iterator().next().getLong(0);
  }

  private static JsonObject group(JsonObject report, String key) {
    return report.getJsonArray("data").stream().map(o -> (JsonObject) o).filter(g -> key.equals(g.getString("key")))
        .findFirst().orElseThrow(() -> new AssertionError(key + " not in " + report.encodePrettily()));
  }

  private static long amount(JsonObject group, String field) {
    return group.getJsonObject(field).getLong("amount");
  }

  /** The CSV cell the JSON field should give: money as its amount, lists joined, null empty. */
  private static String flat(JsonObject group, String dotted) {
    Object value = group;
    for (String part : dotted.split("\\.")) {
      value = ((JsonObject) value).getValue(part);
    }
    if (value instanceof JsonObject money) {
      return String.valueOf(money.getLong("amount"));
    }
    if (value instanceof JsonArray list) {
      return String.join("; ", list.stream().map(String::valueOf).toList());
    }
    return value == null ? "" : String.valueOf(value);
  }

  /** RFC 4180 cells of one line (quoted cells may hold commas). */
  private static List<String> cells(String line) {
    List<String> cells = new java.util.ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
        cell.append('"');
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }
}
