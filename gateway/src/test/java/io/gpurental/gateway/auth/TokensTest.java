package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.auth.tokens.TokenSecrets;
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

/** API tokens: shown once, stored as a hash, scoped, revocable; bearer requests never use cookies. */
@GatewayTest
class TokensTest {
  private static TestGateway node;
  private static WebSession alice;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    alice = new WebSession();
    alice.signIn(node, "github", "alice");
  }

  @Test
  void secretIsShownOnceAndOnlyItsHashIsStored() {
    JsonObject created = create(alice, "ci", "catalog:read");
    String secret = created.getString("token");
    assertTrue(TokenSecrets.wellFormed(secret), secret);
    assertTrue(secret.startsWith("gpr_"));
    assertEquals(secret.substring(0, 10), created.getString("prefix"));

    String stored = node.sql("SELECT string_agg(row_to_json(t)::text, '') FROM api_tokens t").iterator().next().getString(0);
    assertFalse(stored.contains(secret.substring(4)), "the secret must not be stored");
    JsonArray listed = new JsonObject(alice.get(node.url("/api/v1/tokens")).body()).getJsonArray("data");
    JsonObject entry = listed.stream().map(JsonObject.class::cast)
        .filter(t -> t.getString("id").equals(created.getString("id"))).findFirst().orElseThrow();
    assertNull(entry.getValue("token"), "lists never show the secret");
    assertEquals(created.getString("prefix"), entry.getString("prefix"));
  }

  @Test
  void tokenAuthenticatesWithItsScopesOnly() {
    String secret = create(alice, "reader", "catalog:read").getString("token");
    HttpResponse<String> me = bearer(secret, "/api/v1/me");
    assertEquals(200, me.statusCode(), me.body());
    JsonObject body = new JsonObject(me.body());
    assertEquals("token", body.getString("auth"));
    assertEquals(new JsonArray().add("catalog:read"), body.getJsonArray("scopes"));
    assertNull(body.getValue("csrf_token"));

    HttpResponse<String> operatorRoute = send(secret, "PUT", "/api/v1/accounts/acc_x/roles/operator");
    assertEquals(403, operatorRoute.statusCode());
    assertTrue(new JsonObject(operatorRoute.body()).getString("detail").contains("operator"), operatorRoute.body());
  }

  @Test
  void revokedTokenIsRefusedAtOnce() {
    JsonObject created = create(alice, "short-lived", "catalog:read");
    assertEquals(200, bearer(created.getString("token"), "/api/v1/me").statusCode());
    assertEquals(204, alice.write("DELETE", node.url("/api/v1/tokens/" + created.getString("id")), null).statusCode());
    assertEquals(401, bearer(created.getString("token"), "/api/v1/me").statusCode());
  }

  @Test
  void expiredTokenIsRefused() {
    JsonObject created = create(alice, "expiring", "catalog:read");
    node.sql("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = '" + created.getString("id") + "'");
    assertEquals(401, bearer(created.getString("token"), "/api/v1/me").statusCode());
  }

  @Test
  void expiryMustBeInTheFuture() {
    HttpResponse<String> response = alice.write("POST", node.url("/api/v1/tokens"), new JsonObject()
        .put("name", "past").put("scopes", new JsonArray().add("catalog:read")).put("expires_at", "2001-01-01T00:00:00Z"));
    assertEquals(400, response.statusCode());
    assertEquals("#/expires_at", new JsonObject(response.body()).getJsonArray("errors").getJsonObject(0).getString("pointer"));
  }

  @Test
  void renterCannotMintOperatorTokens() {
    HttpResponse<String> response = alice.write("POST", node.url("/api/v1/tokens"),
        new JsonObject().put("name", "sneaky").put("scopes", new JsonArray().add("operator")));
    assertEquals(403, response.statusCode());
  }

  @Test
  void invalidTokenRequestNamesTheField() {
    HttpResponse<String> response = alice.write("POST", node.url("/api/v1/tokens"),
        new JsonObject().put("name", "x").put("scopes", new JsonArray().add("everything")));
    assertEquals(400, response.statusCode());
    JsonArray errors = new JsonObject(response.body()).getJsonArray("errors");
    assertEquals("#/scopes/0", errors.getJsonObject(0).getString("pointer"), response.body());
  }

  @Test
  void tokenInTheQueryStringIsRefused() {
    String secret = create(alice, "leaky", "catalog:read").getString("token");
    HttpResponse<String> response = new WebSession().get(node.url("/api/v1/me?access_token=" + secret));
    assertEquals(400, response.statusCode());
    assertTrue(response.body().contains("Authorization: Bearer"), response.body());
  }

  @Test
  void bearerRequestsNeverFallBackToTheSessionCookie() {
    HttpResponse<String> response = alice.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/me")))
        .header("Authorization", "Bearer gpr_not_a_real_token"));
    assertEquals(401, response.statusCode(), "a bad token with a good cookie must not pass");
    assertTrue(response.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
  }

  @Test
  void reservationsReadTokenReadsButCannotWrite() {
    String secret = create(alice, "dashboard", "reservations:read").getString("token");
    assertEquals(200, bearer(secret, "/api/v1/reservations").statusCode());
    assertEquals(200, bearer(secret, "/api/v1/ssh-keys").statusCode());
    HttpResponse<String> reserve = post(secret, "/api/v1/reservations",
        ApiClient.reservationRequest("off_nyc_h100_01", 1, null, 1, "checkout"));
    assertEquals(403, reserve.statusCode(), reserve.body());
    assertTrue(new JsonObject(reserve.body()).getString("detail").contains("reservations:write"), reserve.body());
    assertEquals(403, bearer(secret, "/api/v1/payments").statusCode(), "reading reservations is not reading payments");
  }

  @Test
  void paymentsReadTokenReadsButCannotWrite() {
    String secret = create(alice, "accounting", "payments:read").getString("token");
    assertEquals(200, bearer(secret, "/api/v1/payments").statusCode());
    assertEquals(200, bearer(secret, "/api/v1/payment-methods").statusCode());
    HttpResponse<String> setup = post(secret, "/api/v1/payment-methods/setup", new JsonObject());
    assertEquals(403, setup.statusCode(), setup.body());
    assertEquals(403, bearer(secret, "/api/v1/reservations").statusCode());
  }

  @Test
  void writeScopesImplyRead() {
    String reservations = create(alice, "booker", "reservations:write").getString("token");
    assertEquals(200, bearer(reservations, "/api/v1/reservations").statusCode());
    String payments = create(alice, "payer", "payments:write").getString("token");
    assertEquals(200, bearer(payments, "/api/v1/payments").statusCode());
  }

  @Test
  void tokensCannotManageTokens() {
    String secret = create(alice, "limited", "reservations:write").getString("token");
    HttpResponse<String> response = send(secret, "GET", "/api/v1/tokens");
    assertEquals(403, response.statusCode());
  }

  @Test
  void anotherAccountsTokenIsNotFound() {
    JsonObject aliceToken = create(alice, "mine", "catalog:read");
    WebSession bob = new WebSession();
    bob.signIn(node, "github", "bob");
    assertEquals(404, bob.write("DELETE", node.url("/api/v1/tokens/" + aliceToken.getString("id")), null).statusCode());
    assertEquals(200, bearer(aliceToken.getString("token"), "/api/v1/me").statusCode(), "still valid");
    boolean bobSeesIt = new JsonObject(bob.get(node.url("/api/v1/tokens")).body()).getJsonArray("data").stream()
        .anyMatch(t -> ((JsonObject) t).getString("id").equals(aliceToken.getString("id")));
    assertFalse(bobSeesIt);
  }

  @Test
  void listIsPaginatedWithACursor() {
    WebSession carol = new WebSession();
    carol.signIn(node, "github", "carol");
    for (int i = 0; i < 3; i++) {
      create(carol, "t" + i, "catalog:read");
    }
    JsonObject first = new JsonObject(carol.get(node.url("/api/v1/tokens?limit=2")).body());
    assertEquals(2, first.getJsonArray("data").size());
    String cursor = first.getString("next_cursor");
    JsonObject second = new JsonObject(carol.get(node.url("/api/v1/tokens?limit=2&cursor=" + cursor)).body());
    assertEquals(1, second.getJsonArray("data").size());
    assertNull(second.getValue("next_cursor"));
    assertEquals("t0", second.getJsonArray("data").getJsonObject(0).getString("name"));
  }

  static JsonObject create(WebSession session, String name, String scope) {
    HttpResponse<String> response = session.write("POST", node.url("/api/v1/tokens"),
        new JsonObject().put("name", name).put("scopes", new JsonArray().add(scope)));
    assertEquals(201, response.statusCode(), response.body());
    return new JsonObject(response.body());
  }

  private static HttpResponse<String> bearer(String secret, String path) {
    return send(secret, "GET", path);
  }

  private static HttpResponse<String> post(String secret, String path, JsonObject body) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url(path)))
        .header("Authorization", "Bearer " + secret).header("Content-Type", "application/json")
        .header("Idempotency-Key", java.util.UUID.randomUUID().toString())
        .POST(HttpRequest.BodyPublishers.ofString(body.encode())));
  }

  private static HttpResponse<String> send(String secret, String method, String path) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url(path)))
        .header("Authorization", "Bearer " + secret)
        .method(method, HttpRequest.BodyPublishers.noBody()));
  }
}
