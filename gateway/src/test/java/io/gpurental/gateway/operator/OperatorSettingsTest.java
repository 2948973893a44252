package io.gpurental.gateway.operator;

import static io.gpurental.gateway.operator.OperatorPricesTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.pricing.CurrentTerms;
import io.gpurental.gateway.pricing.PriceTerms;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The terms of sale are the operator's, in PostgreSQL: seeded from config, changed through the
 * API, used by every new quote, while a given quote and a booked reservation keep theirs.
 */
@GatewayTest(settings = {"GATEWAY_PRICING_PLATFORM_FEE_BPS=300", "GATEWAY_RESERVATIONS_CANCELLATION_FEE_BPS=1000"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorSettingsTest {
  private static final Instant START = Instant.now().plus(4, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

  @Test
  @Order(1)
  void theConfiguredTermsSeedTheDatabaseOnce(TestGateway node, @SignedIn("operator") ApiClient operator) {
    JsonObject settings = operator.json("/api/v1/operator/settings");
    assertEquals(300, settings.getInteger("platform_fee_bps"));
    assertEquals(0, settings.getInteger("tax_bps"));
    assertEquals(1000, settings.getInteger("cancellation_fee_bps"));
    assertEquals(new JsonArray().add(discount(24, 500)).add(discount(168, 1500)), settings.getJsonArray("duration_discounts"));
    assertEquals("usd", settings.getString("currency"));
    assertEquals("config", settings.getString("updated_by"));
    assertEquals(1L, node.sql("SELECT count(*) FROM pricing_settings").iterator().next().getLong(0));
  }

  @Test
  @Order(2)
  void newQuotesUseChangedTermsWhileAGivenQuoteAndABookingKeepTheirs(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("dave") ApiClient dave) {
    dave.saveCard("4242424242424242");
    JsonObject booked = dave.reserve(dave.quote("off_fra_l40s_01", 1, START, 48).getString("id"), "saved_card");
    dave.awaitStatus(booked.getString("id"), "confirmed");
    JsonObject given = dave.quote("off_fra_l40s_01", 1, START.plus(60, ChronoUnit.HOURS), 48);
    assertEquals(1000, given.getInteger("cancellation_fee_bps"));

    HttpResponse<String> put = operator.put("/api/v1/operator/settings", new JsonObject()
        .put("duration_discounts", new JsonArray().add(discount(48, 1000)))
        .put("platform_fee_bps", 500).put("tax_bps", 1000).put("cancellation_fee_bps", 2500));
    assertEquals(200, put.statusCode(), put.body());
    assertTrue(new JsonObject(put.body()).getString("updated_by").startsWith("account:acc_"));

    // 48 h × 79 = 3792; 10 % off = 3413; fee 5 % = 171; tax 10 % of 3584 = 358; total 3942
    JsonObject fresh = dave.quote("off_fra_l40s_01", 1, START.plus(120, ChronoUnit.HOURS), 48);
    assertEquals(List.of(3792L, -379L, 171L, 358L), amounts(fresh));
    assertEquals(3942, fresh.getJsonObject("total").getLong("amount"));
    assertEquals(2500, fresh.getInteger("cancellation_fee_bps"));
    assertTrue(fresh.getString("cancellation_policy").contains("25 %"), fresh.getString("cancellation_policy"));

    assertEquals(given, dave.json("/api/v1/quotes/" + given.getString("id")), "the given quote is unchanged");
    JsonObject fromGiven = dave.reserve(given.getString("id"), "saved_card");
    assertEquals(given.getJsonObject("total"), fromGiven.getJsonObject("price").getJsonObject("total"));
    assertEquals(1000, fromGiven.getJsonObject("price").getInteger("cancellation_fee_bps"));
    JsonObject stillBooked = dave.json("/api/v1/reservations/" + booked.getString("id"));
    assertEquals(booked.getJsonObject("price"), stillBooked.getJsonObject("price"));
    assertTrue(stillBooked.getJsonObject("cancellation").getString("policy").contains("10 %"),
        "the booking keeps the cancellation fee it was quoted");
    JsonObject underNewTerms = dave.reserve(fresh.getString("id"), "saved_card");
    assertTrue(underNewTerms.getJsonObject("cancellation").getString("policy").contains("25 %"),
        "a booking from a new quote has the new fee, though the configured one is still 10 %");
    JsonObject listed = dave.json("/api/v1/offers?gpu_model=L40S&hours=48&start=" + START.plus(200, ChronoUnit.HOURS))
        .getJsonArray("data").getJsonObject(0);
    assertEquals(3942, listed.getJsonObject("window_total").getLong("amount"), "the catalog prices with them too");

    JsonObject audit = operator.json("/api/v1/operator/audit?action=settings.updated").getJsonArray("data").getJsonObject(0);
    assertEquals(300, audit.getJsonObject("before").getInteger("platform_fee_bps"));
    assertEquals(500, audit.getJsonObject("after").getInteger("platform_fee_bps"));
    assertEquals(1000, audit.getJsonObject("before").getInteger("cancellation_fee_bps"));
    assertEquals(2500, audit.getJsonObject("after").getInteger("cancellation_fee_bps"));
    assertEquals(500, node.sql("SELECT platform_fee_bps FROM pricing_settings").iterator().next().getInteger(0));
  }

  @Test
  @Order(3)
  void settingsOutOfRangeAreRefused(@SignedIn("operator") ApiClient operator) {
    JsonObject valid = new JsonObject().put("duration_discounts", new JsonArray())
        .put("platform_fee_bps", 300).put("tax_bps", 0).put("cancellation_fee_bps", 1000);
    assertProblem(400, operator.put("/api/v1/operator/settings", valid.copy().put("platform_fee_bps", 6000)),
        "platform_fee_bps");
    assertProblem(400, operator.put("/api/v1/operator/settings", valid.copy().put("tax_bps", -1)), "tax_bps");
    assertProblem(400, operator.put("/api/v1/operator/settings", valid.copy().put("cancellation_fee_bps", 10001)),
        "cancellation_fee_bps");
    assertProblem(400, operator.put("/api/v1/operator/settings", valid.copy()
        .put("duration_discounts", new JsonArray().add(discount(24, 9500)))), "discount_bps");
    assertProblem(400, operator.put("/api/v1/operator/settings", valid.copy()
        .put("duration_discounts", new JsonArray().add(discount(24, 100)).add(discount(24, 200)))), "24");
    JsonObject missing = valid.copy();
    missing.remove("tax_bps");
    assertProblem(400, operator.put("/api/v1/operator/settings", missing), "tax_bps");
    assertEquals(500, operator.json("/api/v1/operator/settings").getInteger("platform_fee_bps"), "nothing changed");
  }

  @Test
  @Order(4)
  void onceSeededTheDatabaseWinsOverTheConfig(TestGateway node) {
    // what a node started later with other pricing.* values reads: the operator's terms, not its own
    PriceTerms otherConfig = new PriceTerms(List.of(), 100, 100, 100, null, "config");
    PriceTerms read = TestGateway.await(new CurrentTerms(node.gateway().vertx(), node.gateway().pool(), otherConfig).get());
    assertEquals(500, read.platformFeeBps());
    assertEquals(2500, read.cancellationFeeBps());
    assertEquals(1L, node.sql("SELECT count(*) FROM pricing_settings").iterator().next().getLong(0));
  }

  private static JsonObject discount(int hours, int bps) {
    return new JsonObject().put("min_hours", hours).put("discount_bps", bps);
  }

  private static List<Long> amounts(JsonObject quote) {
    return quote.getJsonArray("items").stream()
        .map(item -> ((JsonObject) item).getJsonObject("amount").getLong("amount")).toList();
  }
}
