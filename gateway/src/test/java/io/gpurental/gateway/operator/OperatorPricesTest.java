package io.gpurental.gateway.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The operator sets prices: new quotes use them, given quotes and bookings keep theirs, history is kept. */
@GatewayTest
class OperatorPricesTest {
  private static final Instant START = Instant.now().plus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

  @Test
  void aPriceChangeReachesNewQuotesButNotAGivenQuoteOrABookedReservation(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("alice") ApiClient alice) {
    alice.saveCard("4242424242424242");
    JsonObject booked = alice.reserve(alice.quote("off_osl_5090_01", 1, START, 2).getString("id"), "saved_card");
    alice.awaitStatus(booked.getString("id"), "confirmed");
    JsonObject given = alice.quote("off_osl_5090_01", 1, START.plus(5, ChronoUnit.HOURS), 2);
    assertEquals(65, rate(given));

    HttpResponse<String> set = operator.put("/api/v1/operator/offers/off_osl_5090_01/price", price(90));
    assertEquals(200, set.statusCode(), set.body());
    assertEquals("current", new JsonObject(set.body()).getString("status"));

    assertEquals(90, rate(alice.quote("off_osl_5090_01", 1, START.plus(10, ChronoUnit.HOURS), 2)), "a new quote");
    JsonObject again = alice.json("/api/v1/quotes/" + given.getString("id"));
    assertEquals(given.getJsonObject("total"), again.getJsonObject("total"), "the given quote is unchanged");
    JsonObject fromOldQuote = alice.reserve(given.getString("id"), "saved_card");
    assertEquals(given.getJsonObject("total"), fromOldQuote.getJsonObject("price").getJsonObject("total"),
        "booking the given quote after the change pays its price");
    JsonObject stillBooked = alice.json("/api/v1/reservations/" + booked.getString("id"));
    assertEquals(booked.getJsonObject("price"), stillBooked.getJsonObject("price"), "a booked reservation keeps its price");
    assertEquals(65, stillBooked.getJsonObject("price").getJsonObject("price_per_gpu_hour").getLong("amount"));
    long paid = node.sql("SELECT total_amount FROM reservations WHERE id = '" + booked.getString("id") + "'")
        .iterator().next().getLong(0);
    assertEquals(booked.getJsonObject("price").getJsonObject("total").getLong("amount"), paid);
  }

  @Test
  void aScheduledPriceTakesEffectAtItsTimeAndOnlyThenShowsToRenters(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("bob") ApiClient bob) {
    Instant inAnHour = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
    HttpResponse<String> set = operator.put("/api/v1/operator/offers/off_osl_4090_01/price",
        price(44).put("effective_at", inAnHour.toString()));
    assertEquals(200, set.statusCode(), set.body());
    assertEquals("scheduled", new JsonObject(set.body()).getString("status"));
    assertEquals(inAnHour.toString(), new JsonObject(set.body()).getString("effective_from"));

    assertEquals(35, rate(bob.quote("off_osl_4090_01", 1, START, 1)), "not before its time");
    assertFalse(history("off_osl_4090_01", bob).contains(44L), "renters do not see a scheduled price");
    JsonObject target = target(operator, "off_osl_4090_01");
    assertEquals(35, target.getJsonObject("applies").getJsonObject("price").getLong("amount"));
    assertEquals(44, target.getJsonArray("scheduled").getJsonObject(0).getJsonObject("price").getLong("amount"));

    // rather than wait an hour, the schedule is moved to two seconds from now
    Instant at = node.sql("UPDATE prices SET effective_from = now() + interval '2 seconds'"
        + " WHERE offer_id = 'off_osl_4090_01' AND amount_per_gpu_hour = 44 RETURNING effective_from")
        .iterator().next().getOffsetDateTime(0).toInstant();
    Eventually.eventually("the scheduled price applies", Duration.ofSeconds(20),
        () -> rate(bob.quote("off_osl_4090_01", 1, START, 1)), rate -> rate == 44);
    assertTrue(!Instant.now().isBefore(at), "not before effective_at");
    assertTrue(history("off_osl_4090_01", bob).contains(44L), "in the history once effective");
    Eventually.eventually("the catalog lists it (its cache lives at most 5 s)", Duration.ofSeconds(20),
        () -> listed(bob, "off_osl_4090_01"), price -> price == 44);
    JsonObject after = target(operator, "off_osl_4090_01");
    assertEquals(44, after.getJsonObject("current").getJsonObject("price").getLong("amount"));
    assertEquals(0, after.getJsonArray("scheduled").size());
  }

  @Test
  void anOfferWithoutItsOwnPriceUsesItsModelAndSiteDefault(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("carol") ApiClient carol) {
    node.sql("DELETE FROM prices WHERE offer_id = 'off_fra_a100_01'"); // as if it never had its own
    HttpResponse<String> set = operator.put("/api/v1/operator/default-prices/A100%2080GB/site_fra1", price(150));
    assertEquals(200, set.statusCode(), set.body());
    assertEquals(150, rate(carol.quote("off_fra_a100_01", 1, START, 1)));
    JsonObject target = target(operator, "off_fra_a100_01");
    assertEquals("default", target.getJsonObject("applies").getString("source"));
    assertNull(target.getValue("current"));
    JsonObject fallback = defaults(operator, "A100 80GB", "site_fra1");
    assertEquals(150, fallback.getJsonObject("current").getJsonObject("price").getLong("amount"));
    assertTrue(fallback.getJsonObject("current").getString("set_by").startsWith("account:acc_"));

    assertEquals(200, operator.put("/api/v1/operator/offers/off_fra_a100_01/price", price(130)).statusCode());
    assertEquals(130, rate(carol.quote("off_fra_a100_01", 1, START, 1)), "its own price wins over the default");
    assertEquals("offer", target(operator, "off_fra_a100_01").getJsonObject("applies").getString("source"));
  }

  @Test
  void badPriceChangesAreProblems(@SignedIn("operator") ApiClient operator) {
    String offer = "/api/v1/operator/offers/off_fra_l40s_01/price";
    assertProblem(400, operator.put(offer, new JsonObject().put("amount", 100).put("currency", "eur")), "currency");
    assertProblem(400, operator.put(offer, price(0)), "amount");
    assertProblem(400, operator.put(offer, price(100_000_001)), "amount");
    assertProblem(400, operator.put(offer, price(100).put("effective_at", Instant.now().minusSeconds(600).toString())),
        "effective_at");
    assertProblem(400, operator.put(offer, price(100).put("effective_at", "tomorrow")), "effective_at");
    assertProblem(400, operator.put(offer, price(100).put("note", "x")), "note");
    assertProblem(404, operator.put("/api/v1/operator/offers/off_nope/price", price(100)), "off_nope");
    assertProblem(404, operator.put("/api/v1/operator/default-prices/B200/site_fra1", price(100)), "B200");
    assertProblem(404, operator.put("/api/v1/operator/default-prices/L40S/site_nowhere", price(100)), "site_nowhere");
    String at = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS).toString();
    assertEquals(200, operator.put(offer, price(81).put("effective_at", at)).statusCode());
    assertProblem(409, operator.put(offer, price(82).put("effective_at", at)), "already");
  }

  @Test
  void everyPriceChangeIsAuditedWithBeforeAndAfter(@SignedIn("operator") ApiClient operator) {
    String me = "account:" + operator.json("/api/v1/me").getString("id");
    assertEquals(200, operator.put("/api/v1/operator/offers/off_nyc_h200_01/price", price(349)).statusCode());
    assertEquals(200, operator.put("/api/v1/operator/offers/off_nyc_h200_01/price", price(359)).statusCode());
    JsonArray entries = operator.json("/api/v1/operator/audit?target=off_nyc_h200_01&action=price.")
        .getJsonArray("data");
    assertEquals(2, entries.size(), entries.encodePrettily());
    JsonObject newest = entries.getJsonObject(0);
    assertEquals("price.offer.set", newest.getString("action"));
    assertEquals(me, newest.getString("actor"));
    assertEquals(349, newest.getJsonObject("before").getLong("amount"));
    assertEquals(359, newest.getJsonObject("after").getLong("amount"));
    assertEquals(329, entries.getJsonObject(1).getJsonObject("before").getLong("amount"), "the demo price before");

    JsonObject first = operator.json("/api/v1/operator/audit?target=off_nyc_h200_01&limit=1");
    assertEquals(1, first.getJsonArray("data").size());
    assertNotNull(first.getString("next_cursor"));
    JsonObject second = operator.json("/api/v1/operator/audit?target=off_nyc_h200_01&limit=1&cursor="
        + first.getString("next_cursor"));
    assertEquals(349, second.getJsonArray("data").getJsonObject(0).getJsonObject("after").getLong("amount"));
    String future = URLEncoder.encode(Instant.now().plusSeconds(3600).toString(), StandardCharsets.UTF_8);
    assertEquals(0, operator.json("/api/v1/operator/audit?target=off_nyc_h200_01&from=" + future)
        .getJsonArray("data").size());
    assertEquals(2, operator.json("/api/v1/operator/audit?target=off_nyc_h200_01&actor="
        + URLEncoder.encode(me, StandardCharsets.UTF_8) + "&to=" + future).getJsonArray("data").size());
  }

  private static JsonObject price(long amount) {
    return new JsonObject().put("amount", amount).put("currency", "usd");
  }

  private static long rate(JsonObject quote) {
    return quote.getJsonObject("price_per_gpu_hour").getLong("amount");
  }

  private static java.util.List<Long> history(String offerId, ApiClient renter) {
    JsonArray history = renter.json("/api/v1/offers/" + offerId).getJsonArray("price_history");
    return history.stream().map(h -> ((JsonObject) h).getJsonObject("amount_per_gpu_hour").getLong("amount")).toList();
  }

  private static long listed(ApiClient renter, String offerId) {
    JsonArray offers = renter.json("/api/v1/offers?include_unavailable=true&limit=100").getJsonArray("data");
    return offers.stream().map(JsonObject.class::cast).filter(o -> offerId.equals(o.getString("id"))).findFirst()
        .orElseThrow().getJsonObject("price_per_gpu_hour").getLong("amount");
  }

  private static JsonObject target(ApiClient operator, String offerId) {
    return targets(operator).filter(t -> offerId.equals(t.getString("offer_id"))).findFirst().orElseThrow();
  }

  private static JsonObject defaults(ApiClient operator, String model, String site) {
    return targets(operator).filter(t -> "default".equals(t.getString("kind")) && model.equals(t.getString("gpu_model"))
        && site.equals(t.getString("site_id"))).findFirst().orElseThrow();
  }

  private static Stream<JsonObject> targets(ApiClient operator) {
    return operator.json("/api/v1/operator/prices").getJsonArray("data").stream().map(JsonObject.class::cast);
  }

  static void assertProblem(int status, HttpResponse<String> response, String mentions) {
    assertEquals(status, response.statusCode(), response.body());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
        response.headers().toString());
    assertTrue(response.body().contains(mentions), response.body());
  }
}
