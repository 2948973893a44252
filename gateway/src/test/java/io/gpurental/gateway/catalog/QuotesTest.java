package io.gpurental.gateway.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestBookings;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Quotes guarantee a price: honoured after a price change, unforgeable, and they expire. */
@GatewayTest
class QuotesTest {
  private static TestGateway node;
  private static final Instant START = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  void quoteIsItemisedAndMatchesTheCatalogWindowTotal() {
    JsonObject quote = quote("off_nyc_h100_01", 1, 24);
    assertEquals(4673, quote.getJsonObject("total").getLong("amount"));
    JsonObject offer = new JsonObject(node.get("/api/v1/offers?gpu_model=H100%20SXM&hours=24&start=" + START).body())
        .getJsonArray("data").getJsonObject(0);
    assertEquals(offer.getJsonObject("window_total"), quote.getJsonObject("total"), "listed total = quoted total");
    assertEquals(START.plus(24, ChronoUnit.HOURS).toString(), quote.getString("end"));
    Instant expires = Instant.parse(quote.getString("expires_at"));
    assertTrue(expires.isAfter(Instant.now().plusSeconds(14 * 60)) && expires.isBefore(Instant.now().plusSeconds(16 * 60)));
    assertTrue(quote.getString("cancellation_policy").contains("refund"));
  }

  @Test
  void quoteIsHonouredAfterThePriceChanges() {
    JsonObject quote = quote("off_nyc_h200_01", 2, 10);
    long quoted = quote.getJsonObject("total").getLong("amount");
    node.sql("INSERT INTO prices (offer_id, amount_per_gpu_hour, currency, effective_from, set_by)"
        + " VALUES ('off_nyc_h200_01', 499, 'usd', now(), 'test')");
    JsonObject again = get("/api/v1/quotes/" + quote.getString("id"));
    assertEquals(quoted, again.getJsonObject("total").getLong("amount"));
    JsonObject fresh = quote("off_nyc_h200_01", 2, 10);
    assertNotEquals(quoted, fresh.getJsonObject("total").getLong("amount"), "new quotes use the new price");
    assertEquals(499, fresh.getJsonObject("price_per_gpu_hour").getLong("amount"));
  }

  @Test
  void tamperedOrForgedQuoteIdsAreUnknown() {
    String id = quote("off_fra_l40s_01", 1, 1).getString("id");
    String tampered = id.substring(0, id.length() - 2) + (id.endsWith("AA") ? "BB" : "AA");
    assertEquals(404, node.get("/api/v1/quotes/" + tampered).statusCode());
    String laterExpiry = id.replaceFirst("\\.(\\d+)\\.", ".9999999999.");
    assertEquals(404, node.get("/api/v1/quotes/" + laterExpiry).statusCode(), "expiry is covered by the signature");
    assertEquals(404, node.get("/api/v1/quotes/quo_made_up.1.x").statusCode());
  }

  @Test
  void expiredQuoteIsGone() {
    String expired = io.gpurental.gateway.pricing.QuoteIdsForTests.signedExpiredId();
    HttpResponse<String> response = node.get("/api/v1/quotes/" + expired);
    assertEquals(410, response.statusCode(), response.body());
    assertEquals("urn:problem-type:gpu-rental:gone", new JsonObject(response.body()).getString("type"));
  }

  @Test
  void gpuCountMustBeOneTheOfferSells() {
    HttpResponse<String> response = post(new JsonObject().put("offer_id", "off_nyc_h100_01").put("gpu_count", 3)
        .put("hours", 1).put("start", START.toString()));
    assertEquals(400, response.statusCode());
    assertEquals("#/gpu_count", new JsonObject(response.body()).getJsonArray("errors").getJsonObject(0).getString("pointer"));
  }

  @Test
  void moreGpusThanAreFreeIsAConflict() {
    TestBookings.book(node, "host_osl_4090_01", 1, START, START.plus(1, ChronoUnit.DAYS));
    HttpResponse<String> response = post(new JsonObject().put("offer_id", "off_osl_4090_01").put("gpu_count", 4)
        .put("hours", 2).put("start", START.toString()));
    assertEquals(409, response.statusCode(), response.body());
    assertEquals(3, new JsonObject(response.body()).getInteger("gpus_available"));
  }

  @Test
  void badQuoteRequestsNameTheField() {
    assertEquals(400, post(new JsonObject().put("offer_id", "off_nyc_h100_01").put("gpu_count", 1).put("hours", 0)).statusCode());
    assertEquals(400, post(new JsonObject().put("offer_id", "off_nyc_h100_01").put("gpu_count", 1).put("hours", 1)
        .put("start", "2001-01-01T00:00:00Z")).statusCode());
    HttpResponse<String> unknown = post(new JsonObject().put("offer_id", "off_nope").put("gpu_count", 1).put("hours", 1));
    assertEquals(400, unknown.statusCode());
    assertTrue(unknown.body().contains("#/offer_id"), unknown.body());
    assertEquals(400, post(new JsonObject().put("offer_id", "off_nyc_h100_01").put("gpu_count", 1).put("hours", 1)
        .put("price", 1)).statusCode(), "additional properties are refused");
  }

  private static JsonObject quote(String offerId, int gpus, int hours) {
    HttpResponse<String> response = post(new JsonObject().put("offer_id", offerId).put("gpu_count", gpus)
        .put("hours", hours).put("start", START.toString()));
    assertEquals(201, response.statusCode(), response.body());
    return new JsonObject(response.body());
  }

  private static HttpResponse<String> post(JsonObject body) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/quotes")))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.encode())));
  }

  private static JsonObject get(String path) {
    HttpResponse<String> response = node.get(path);
    assertEquals(200, response.statusCode(), response.body());
    return new JsonObject(response.body());
  }
}
