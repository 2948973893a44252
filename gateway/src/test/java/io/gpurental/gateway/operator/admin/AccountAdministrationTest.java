package io.gpurental.gateway.operator.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.EventStream;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator's account administration: search; operator granted and revoked, effective on the
 * next request; suspension stops a token, a session and open event streams at once, refuses
 * sign-in, and lifting it restores them; nobody demotes or suspends themselves; config-listed
 * operators are not revoked through the API; every change is in the audit log.
 */
@GatewayTest(settings = {"GATEWAY_AUTH_OPERATORS_GITHUB_LOGINS=boss"})
class AccountAdministrationTest {
  /** "At once", generous for a loaded machine: the event closes it, not the 30 s periodic re-check. */
  private static final Duration QUICKLY = Duration.ofSeconds(5);
  private static TestGateway node;
  private static WebSession operator;
  private static String operatorId;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    operator = signedIn("operator");
    operatorId = operator.me(node).getString("id");
  }

  @Test
  void searchFindsAccountsByLoginNameOrEmailAndPages() {
    String olgaId = signedIn("olga-search").me(node).getString("id");
    signedIn("olivia-search");
    JsonObject found = list("/api/v1/operator/accounts?q=" + enc("OLGA-sea"));
    assertEquals(1, found.getJsonArray("data").size(), found.encode());
    JsonObject olga = found.getJsonArray("data").getJsonObject(0);
    assertEquals(olgaId, olga.getString("id"));
    assertEquals("olga-search", olga.getJsonArray("identities").getJsonObject(0).getString("login"));
    assertFalse(olga.getJsonObject("operator").getBoolean("granted"));
    assertNull(olga.getValue("suspension"));
    assertEquals(olgaId, list("/api/v1/operator/accounts?q=" + olgaId).getJsonArray("data").getJsonObject(0)
        .getString("id"), "by id");
    String email = olga.getString("primary_email");
    if (email != null) {
      assertEquals(olgaId, list("/api/v1/operator/accounts?q=" + enc(email)).getJsonArray("data").getJsonObject(0)
          .getString("id"), "by email");
    }
    assertEquals(0, list("/api/v1/operator/accounts?q=" + enc("o_ga-search")).getJsonArray("data").size(),
        "an _ is a character, not a wildcard");

    JsonObject first = list("/api/v1/operator/accounts?q=-search&limit=1");
    assertEquals(1, first.getJsonArray("data").size());
    assertNotNull(first.getString("next_cursor"));
    JsonObject second = list("/api/v1/operator/accounts?q=-search&limit=1&cursor=" + first.getString("next_cursor"));
    assertEquals(1, second.getJsonArray("data").size());
    assertFalse(second.getJsonArray("data").getJsonObject(0).getString("id")
        .equals(first.getJsonArray("data").getJsonObject(0).getString("id")));
  }

  @Test
  void grantedAndRevokedOperatorTakesEffectOnTheNextRequest() {
    WebSession pia = signedIn("pia");
    String piaId = pia.me(node).getString("id");
    assertEquals(403, pia.get(node.url("/api/v1/operator/accounts")).statusCode());

    HttpResponse<String> granted = operator.write("PUT", node.url("/api/v1/operator/accounts/" + piaId
        + "/roles/operator"), null);
    assertEquals(200, granted.statusCode(), granted.body());
    assertTrue(new JsonObject(granted.body()).getJsonObject("operator").getBoolean("granted"));
    assertEquals(200, pia.get(node.url("/api/v1/operator/accounts")).statusCode(), "the same session, next request");

    HttpResponse<String> revoked = operator.write("DELETE", node.url("/api/v1/operator/accounts/" + piaId
        + "/roles/operator"), null);
    assertEquals(200, revoked.statusCode(), revoked.body());
    assertEquals(403, pia.get(node.url("/api/v1/operator/accounts")).statusCode());
    assertEquals(2, node.sql("SELECT 1 FROM audit_log WHERE target = '" + piaId
        + "' AND action IN ('role.granted', 'role.revoked') AND actor = 'account:" + operatorId + "'").size());
  }

  @Test
  void noOneDemotesOrSuspendsThemselvesAndConfigOperatorsAreNotRevokedHere() {
    assertProblem(409, "your own", operator.write("DELETE", node.url("/api/v1/operator/accounts/" + operatorId
        + "/roles/operator"), null));
    assertProblem(409, "your own", operator.write("POST", node.url("/api/v1/operator/accounts/" + operatorId
        + "/suspension"), new JsonObject().put("reason", "testing myself")));
    String bossId = signedIn("boss").me(node).getString("id");
    JsonObject boss = list("/api/v1/operator/accounts?q=" + bossId).getJsonArray("data").getJsonObject(0);
    assertTrue(boss.getJsonObject("operator").getBoolean("by_config"), boss.encode());
    assertProblem(409, "auth.operators.github_logins", operator.write("DELETE",
        node.url("/api/v1/operator/accounts/" + bossId + "/roles/operator"), null));
    assertTrue(signedIn("boss").me(node).getJsonArray("roles").contains("operator"));
    assertProblem(404, "acc_nobody", operator.write("POST", node.url("/api/v1/operator/accounts/acc_nobody/suspension"),
        new JsonObject().put("reason", "does not exist")));
  }

  @Test
  void suspensionStopsTokensSessionsAndStreamsAtOnceAndLiftingRestoresThem() throws Exception {
    WebSession quinn = signedIn("quinn");
    String quinnId = quinn.me(node).getString("id");
    String token = token(quinn);
    try (EventStream byToken = EventStream.bearer(node, token); EventStream bySession = EventStream.session(node, quinn)) {
      long suspendedAt = System.nanoTime();
      HttpResponse<String> suspended = operator.write("POST", node.url("/api/v1/operator/accounts/" + quinnId
          + "/suspension"), new JsonObject().put("reason", "chargeback fraud"));
      assertEquals(200, suspended.statusCode(), suspended.body());
      assertEquals("chargeback fraud", new JsonObject(suspended.body()).getJsonObject("suspension").getString("reason"));

      Duration tokenStream = byToken.awaitEnd(suspendedAt);
      Duration sessionStream = bySession.awaitEnd(suspendedAt);
      System.out.println("Streams of a suspended account closed after " + tokenStream.toMillis() + " ms (token) and "
          + sessionStream.toMillis() + " ms (session)");
      assertTrue(tokenStream.compareTo(QUICKLY) < 0, tokenStream.toString());
      assertTrue(sessionStream.compareTo(QUICKLY) < 0, sessionStream.toString());
    }
    JsonObject refusedToken = assertProblem(403, "chargeback fraud", bearer(token, "/api/v1/reservations"));
    assertEquals("chargeback fraud", refusedToken.getJsonObject("suspension").getString("reason"));
    assertProblem(403, "suspended", quinn.get(node.url("/api/v1/reservations")));
    assertProblem(403, "suspended", quinn.get(node.url("/api/v1/me")));
    WebSession again = new WebSession();
    String landing = again.finish(again.approve(again.startSignIn(node, "github", null), "quinn", null));
    assertTrue(landing.startsWith("/signin?error=account_suspended"), landing);
    assertTrue(landing.contains("chargeback"), landing);
    assertProblem(409, "suspended already", operator.write("POST", node.url("/api/v1/operator/accounts/" + quinnId
        + "/suspension"), new JsonObject().put("reason", "again")));

    HttpResponse<String> lifted = operator.write("DELETE", node.url("/api/v1/operator/accounts/" + quinnId
        + "/suspension"), null);
    assertEquals(200, lifted.statusCode(), lifted.body());
    assertNull(new JsonObject(lifted.body()).getValue("suspension"));
    assertEquals(200, bearer(token, "/api/v1/reservations").statusCode(), "the same token works again");
    assertEquals(200, quinn.get(node.url("/api/v1/reservations")).statusCode(), "the same session works again");
    assertEquals("/", again.signIn(node, "github", "quinn"));
    assertEquals(List.of("account.suspended", "account.unsuspended"), node.sql("SELECT action FROM audit_log WHERE target = '"
        + quinnId + "' AND action LIKE 'account.%suspended' ORDER BY at, id").stream().map(r -> r.getString(0)).toList());
  }

  private static JsonObject assertProblem(int status, String detailContains, HttpResponse<String> response) {
    assertEquals(status, response.statusCode(), response.body());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
    JsonObject problem = new JsonObject(response.body());
    assertTrue(problem.getString("detail").contains(detailContains), problem.encode());
    return problem;
  }

  private static JsonObject list(String path) {
    HttpResponse<String> response = operator.get(node.url(path));
    assertEquals(200, response.statusCode(), response.body());
    return new JsonObject(response.body());
  }

  private static HttpResponse<String> bearer(String token, String path) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url(path))).header("Authorization", "Bearer " + token));
  }

  private static WebSession signedIn(String login) {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", login);
    return browser;
  }

  private static String token(WebSession browser) {
    HttpResponse<String> created = browser.write("POST", node.url("/api/v1/tokens"), new JsonObject()
        .put("name", "admin-test").put("scopes", new JsonArray().add("reservations:write")));
    assertEquals(201, created.statusCode(), created.body());
    return new JsonObject(created.body()).getString("token");
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
