package io.gpurental.gateway.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Predicate;

/** A renter's API client for tests: a bearer token with every renter scope, JSON in and out. */
public final class ApiClient {
  public static final String SSH_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc renter";
  private final TestGateway node;
  private final String token;

  private ApiClient(TestGateway node, String token) {
    this.node = node;
    this.token = token;
  }

  /** Signs {@code login} in with the sandbox GitHub and makes a token (operator scope too for operators). */
  public static ApiClient signIn(TestGateway node, String login) {
    JsonArray scopes = new JsonArray().add("catalog:read").add("reservations:write").add("payments:write");
    if ("operator".equals(login)) {
      scopes.add("operator");
    }
    return signIn(node, login, scopes);
  }

  /** Signs {@code login} in and makes a token with exactly these scopes. */
  public static ApiClient signIn(TestGateway node, String login, JsonArray scopes) {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", login);
    HttpResponse<String> created = browser.write("POST", node.url("/api/v1/tokens"),
        new JsonObject().put("name", "test").put("scopes", scopes));
    assertEquals(201, created.statusCode(), created.body());
    return new ApiClient(node, new JsonObject(created.body()).getString("token"));
  }

  /** The bearer token, for requests this client does not make (an event stream). */
  public String token() {
    return token;
  }

  /** The same token against another node of the cluster. */
  public ApiClient on(TestGateway other) {
    return new ApiClient(other, token);
  }

  public HttpResponse<String> get(String path) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url(path))).header("Authorization", "Bearer " + token));
  }

  /** POST with a fresh Idempotency-Key. */
  public HttpResponse<String> post(String path, JsonObject body) {
    return post(path, body, UUID.randomUUID().toString());
  }

  public HttpResponse<String> post(String path, JsonObject body, String idempotencyKey) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url(path)))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body == null ? "{}" : body.encode()));
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    return node.send(request);
  }

  public HttpResponse<String> put(String path, JsonObject body) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url(path))).header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body.encode())));
  }

  public HttpResponse<String> delete(String path) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url(path))).header("Authorization", "Bearer " + token)
        .DELETE());
  }

  public JsonObject json(String path) {
    HttpResponse<String> response = get(path);
    assertEquals(200, response.statusCode(), response.body());
    return new JsonObject(response.body());
  }

  /** A quote for {@code hours} from {@code start} (now when null); asserts 201. */
  public JsonObject quote(String offerId, int gpus, Instant start, int hours) {
    JsonObject body = new JsonObject().put("offer_id", offerId).put("gpu_count", gpus).put("hours", hours);
    if (start != null) {
      body.put("start", start.toString());
    }
    HttpResponse<String> quoted = post("/api/v1/quotes", body, null);
    assertEquals(201, quoted.statusCode(), quoted.body());
    return new JsonObject(quoted.body());
  }

  /** A reservation of a quote, paid by {@code payment}; asserts 201. */
  public JsonObject reserve(String quoteId, String payment) {
    HttpResponse<String> created = post("/api/v1/reservations",
        new JsonObject().put("quote_id", quoteId).put("ssh_public_key", SSH_KEY).put("payment", payment));
    assertEquals(201, created.statusCode(), created.body());
    return new JsonObject(created.body());
  }

  /** A reservation quoted on the spot; asserts 201. */
  public JsonObject reserve(String offerId, int gpus, Instant start, int hours, String payment) {
    HttpResponse<String> created = post("/api/v1/reservations", reservationRequest(offerId, gpus, start, hours, payment));
    assertEquals(201, created.statusCode(), created.body());
    return new JsonObject(created.body());
  }

  public static JsonObject reservationRequest(String offerId, int gpus, Instant start, int hours, String payment) {
    JsonObject body = new JsonObject().put("offer_id", offerId).put("gpu_count", gpus).put("hours", hours)
        .put("ssh_public_key", SSH_KEY).put("payment", payment);
    if (start != null) {
      body.put("start", start.toString());
    }
    return body;
  }

  /** Polls the reservation (bounded, 30 s) until it matches. */
  public JsonObject await(String reservationId, Predicate<JsonObject> condition, String what) {
    return Eventually.eventually(reservationId + " " + what, () -> json("/api/v1/reservations/" + reservationId),
        condition);
  }

  public JsonObject awaitStatus(String reservationId, String status) {
    return await(reservationId, r -> status.equals(r.getString("status")), "became " + status);
  }

  /** Saves {@code card} through Checkout in setup mode, as a browser would, and waits for the webhook. */
  public JsonObject saveCard(String card) {
    HttpResponse<String> setup = post("/api/v1/payment-methods/setup", new JsonObject());
    assertEquals(201, setup.statusCode(), setup.body());
    String session = new JsonObject(setup.body()).getString("checkout_url").replaceAll(".*/checkout/", "");
    HttpResponse<String> done = completeCheckout(node, session, card);
    assertEquals(200, done.statusCode(), done.body());
    String last4 = card.substring(card.length() - 4);
    JsonArray cards = Eventually.eventually("the card was saved", () -> json("/api/v1/payment-methods")
        .getJsonArray("data"), saved -> !saved.isEmpty() && last4.equals(saved.getJsonObject(0).getString("last4")));
    return cards.getJsonObject(0);
  }

  /** Pays a reservation's pending sandbox Checkout with {@code card}, as its hosted page would; asserts 200. */
  public void payByCheckout(JsonObject reservation, String card) {
    String session = sessionOf(reservation.getJsonObject("payment").getString("checkout_url"));
    HttpResponse<String> paid = completeCheckout(node, session, card);
    assertEquals(200, paid.statusCode(), paid.body());
  }

  /** Pays (or fails to pay) a sandbox Checkout Session with a test card, as its hosted page would. */
  public static HttpResponse<String> completeCheckout(TestGateway node, String sessionId, String card) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url("/sandbox/stripe/_test/checkout/sessions/" + sessionId
            + "/complete"))).header("Authorization", "Bearer " + node.gateway().sandboxFaultControlKey())
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("card=" + card)));
  }

  /** The session id of a checkout URL. */
  public static String sessionOf(String checkoutUrl) {
    return checkoutUrl.replaceAll(".*/checkout/", "");
  }

  /** Sets the sandbox's webhook delivery: normal, drop, duplicate, delay, reorder. */
  public static void webhooks(TestGateway node, String mode) {
    HttpResponse<String> set = node.send(HttpRequest.newBuilder(URI.create(node.url("/sandbox/stripe/_test/webhooks")))
        .header("Authorization", "Bearer " + node.gateway().sandboxFaultControlKey())
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("mode=" + mode)));
    assertEquals(200, set.statusCode(), set.body());
  }

  /** The ledger check an operator sees; tests assert it is clean after money moved. */
  public static JsonObject ledgerCheck(TestGateway node) {
    var problems = node.sql("SELECT problem, ref, detail FROM ledger_problems");
    JsonArray list = new JsonArray();
    problems.forEach(row -> list.add(row.getString(0) + " " + row.getString(1) + ": " + row.getString(2)));
    return new JsonObject().put("ok", list.isEmpty()).put("problems", list);
  }
}
