package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Input PostgreSQL or Java cannot hold (NUL characters, numbers out of range, blank names) is a 400 naming the field. */
@GatewayTest
class HostileInputTest {
  private static TestGateway node;
  private static WebSession browser;
  private static ApiClient api;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    browser = new WebSession();
    browser.signIn(node, "github", "mallory");
    api = ApiClient.signIn(node, "mallory");
  }

  /** Found by ContractFuzzTest: Vert.x's BodyHandler threw (500) on a form Content-Type outside POST/PUT/PATCH/DELETE. */
  @Test
  void aFormContentTypeOnAGetIs415() {
    for (String type : new String[] {"multipart/form-data; boundary=x", "application/x-www-form-urlencoded"}) {
      for (String path : new String[] {"/api/v1/offers", "/api/v1/events", "/"}) {
        HttpResponse<String> answer = node.send(HttpRequest.newBuilder(URI.create(node.url(path)))
            .header("Content-Type", type).GET());
        assertEquals(415, answer.statusCode(), path + " " + type + ": " + answer.body());
        assertEquals(415, new JsonObject(answer.body()).getInteger("status"), answer.body());
      }
      HttpResponse<String> options = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/offers")))
          .header("Content-Type", type).method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
      assertEquals(415, options.statusCode(), options.body());
    }
  }

  /** Found by ContractFuzzTest: a request Netty cannot decode got Vert.x's empty 414/431, not problem+json. */
  @Test
  void aRequestLineOrHeadersBeyondTheLimitsGetProblems() {
    HttpResponse<String> longLine = node.get("/api/v1/offers?region=" + "x".repeat(10_000));
    assertEquals(414, longLine.statusCode(), longLine.body());
    assertEquals(414, new JsonObject(longLine.body()).getInteger("status"), longLine.body());
    assertTrue(longLine.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
    HttpResponse<String> bigHeaders = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/offers")))
        .header("X-Padding", "x".repeat(10_000)).GET());
    assertEquals(431, bigHeaders.statusCode(), bigHeaders.body());
    assertEquals(431, new JsonObject(bigHeaders.body()).getInteger("status"), bigHeaders.body());
  }

  @Test
  void nulInAJsonStringNamesTheField() {
    HttpResponse<String> token = browser.write("POST", node.url("/api/v1/tokens"),
        new JsonObject().put("name", "c\u0000i").put("scopes", new JsonArray().add("catalog:read")));
    assertField(token, "#/name");

    HttpResponse<String> key = api.post("/api/v1/ssh-keys",
        new JsonObject().put("name", "lap\u0000top").put("public_key", ApiClient.SSH_KEY));
    assertField(key, "#/name");
  }

  @Test
  void nulInAQueryValueNamesTheParameter() {
    assertField(node.get("/api/v1/offers?region=us%00east"), "#/region");
  }

  @Test
  void nulInAPathIdNamesTheParameter() {
    assertField(api.get("/api/v1/reservations/rsv_%00x"), "#/reservation_id");
    assertField(api.delete("/api/v1/ssh-keys/key_%00x"), "#/key_id");
  }

  @Test
  void nulSmuggledInACursorNamesTheCursor() {
    String cursor = java.util.Base64.getUrlEncoder().withoutPadding()
        .encodeToString("2026-01-01T00:00Z|rsv_\u0000".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertField(api.get("/api/v1/reservations?cursor=" + cursor), "#/cursor");
  }

  @Test
  void numbersBeyondTheirRangeAre400() {
    HttpResponse<String> price = node.get("/api/v1/offers?max_price_per_gpu_hour=99999999999999999999");
    assertEquals(400, price.statusCode(), price.body());
    assertTrue(new JsonObject(price.body()).getString("detail").contains("max_price_per_gpu_hour"), price.body());
    assertEquals(400, node.get("/api/v1/offers?min_gpus=99999999999999999999").statusCode());
    HttpResponse<String> quote = api.post("/api/v1/quotes", new JsonObject("{\"offer_id\":\"off_nyc_h100_01\","
        + "\"gpu_count\":1,\"hours\":99999999999999999999}"));
    assertEquals(400, quote.statusCode(), quote.body());
  }

  @Test
  void integersInEveryFormTheContractAdmitsAreRead() {
    for (String ten : new String[] {"1e1", "10.0", "1E1"}) {
      assertEquals(200, api.get("/api/v1/reservations?limit=" + ten).statusCode(), ten);
      assertEquals(200, api.get("/api/v1/payments?limit=" + ten).statusCode(), ten);
      assertEquals(200, browser.get(node.url("/api/v1/tokens?limit=" + ten)).statusCode(), ten);
      assertEquals(200, node.get("/api/v1/offers?limit=" + ten + "&min_gpus=" + ten).statusCode(), ten);
    }
  }

  @Test
  void namesThatAreBlankAfterTrimmingAre400() {
    HttpResponse<String> token = browser.write("POST", node.url("/api/v1/tokens"),
        new JsonObject().put("name", "  \t ").put("scopes", new JsonArray().add("catalog:read")));
    assertField(token, "#/name");

    HttpResponse<String> key = api.post("/api/v1/ssh-keys",
        new JsonObject().put("name", "   ").put("public_key", ApiClient.SSH_KEY));
    assertField(key, "#/name");
  }

  private static void assertField(HttpResponse<String> response, String pointer) {
    assertEquals(400, response.statusCode(), response.body());
    ErrorResponsesTest.assertNoStackTrace(response.body());
    JsonArray errors = new JsonObject(response.body()).getJsonArray("errors");
    assertNotNull(errors, response.body());
    assertEquals(pointer, errors.getJsonObject(0).getString("pointer"), response.body());
  }
}
