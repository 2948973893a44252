package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.auth.signin.Pkce;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Sign-in through the sandbox GitHub and Google, with the real vertx-auth-oauth2 code paths. */
// the class starts 29 sign-ins from one address, one short of the default 30 a minute; the limit
// itself is AbuseLimitsTest's subject
@GatewayTest(settings = "GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE=1000")
class SignInTest {
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  void githubSignInCreatesAnAccountAndRegeneratesTheSessionId() {
    WebSession browser = new WebSession();
    String authorize = browser.startSignIn(node, "github", "/account");
    Map<String, String> params = WebSession.query(authorize);
    assertEquals("S256", params.get("code_challenge_method"));
    assertEquals(node.url("/auth/github/callback"), params.get("redirect_uri"));
    String cookieBefore = browser.cookie(Sessions.PLAIN_COOKIE).orElseThrow().getValue();

    String landing = browser.finish(browser.approve(authorize, "grace", null));
    assertEquals("/account", landing);
    String cookieAfter = browser.cookie(Sessions.PLAIN_COOKIE).orElseThrow().getValue();
    assertNotEquals(cookieBefore, cookieAfter, "session id changes at login");

    JsonObject me = browser.me(node);
    assertEquals("Grace", me.getString("display_name"));
    assertEquals("grace@example.com", me.getString("primary_email"));
    assertEquals(new JsonArray().add("renter"), me.getJsonArray("roles"));
    assertEquals("session", me.getString("auth"));
    assertTrue(me.getString("csrf_token").length() >= 32);
    JsonObject identity = me.getJsonArray("identities").getJsonObject(0);
    assertEquals("github", identity.getString("provider"));
    assertEquals("grace", identity.getString("login"));
  }

  @Test
  void returningPersonSignsInToTheSameAccount() {
    WebSession first = new WebSession();
    first.signIn(node, "github", "heidi");
    WebSession second = new WebSession();
    second.signIn(node, "github", "heidi");
    assertEquals(first.me(node).getString("id"), second.me(node).getString("id"));
  }

  @Test
  void googleSignInVerifiesTheIdToken() {
    WebSession browser = new WebSession();
    browser.signIn(node, "google", "ivan@example.org");
    JsonObject me = browser.me(node);
    assertEquals("ivan@example.org", me.getString("primary_email"));
    assertEquals("google", me.getJsonArray("identities").getJsonObject(0).getString("provider"));
  }

  @Test
  void sessionCookieIsHttpOnlyLaxAndScopedToTheSite() {
    WebSession browser = new WebSession();
    HttpResponse<String> start = browser.get(node.url("/auth/github"));
    String setCookie = start.headers().allValues("Set-Cookie").stream()
        .filter(c -> c.startsWith(Sessions.PLAIN_COOKIE + "=")).findFirst().orElseThrow();
    assertTrue(setCookie.contains("HTTPOnly") || setCookie.contains("HttpOnly"), setCookie);
    assertTrue(setCookie.contains("SameSite=Lax"), setCookie);
    assertTrue(setCookie.contains("Path=/"), setCookie);
    assertTrue(!setCookie.contains("Domain="), setCookie);
  }

  @Test
  void wrongStateIsRefused() {
    WebSession browser = new WebSession();
    String callback = browser.approve(browser.startSignIn(node, "github", null), "mallory", null);
    String tampered = callback.replaceAll("state=[^&]+", "state=forged");
    String landing = browser.finish(tampered);
    assertTrue(landing.startsWith("/signin?error=state_mismatch"), landing);
    assertSignedOut(browser);
  }

  @Test
  void replayedCodeIsRefused() {
    WebSession victim = new WebSession();
    String callback = victim.approve(victim.startSignIn(node, "github", null), "judy", null);
    victim.finish(callback);
    String usedCode = WebSession.query(callback).get("code");

    WebSession attacker = new WebSession();
    String attackerCallback = attacker.approve(attacker.startSignIn(node, "github", null), "mallory", null);
    String replay = attackerCallback.replaceAll("code=[^&]+", "code=" + usedCode);
    String landing = attacker.finish(replay);
    assertTrue(landing.startsWith("/signin?error=provider_error"), landing);
    assertSignedOut(attacker);
  }

  @ParameterizedTest
  @ValueSource(strings = {"github", "google"})
  void wrongPkceVerifierIsRefused(String provider) {
    WebSession browser = new WebSession();
    String authorize = browser.startSignIn(node, provider, null);
    String otherChallenge = Pkce.challenge(Pkce.newVerifier());
    String swapped = authorize.replaceAll("code_challenge=[^&]+", "code_challenge=" + otherChallenge);
    String who = provider.equals("github") ? "mallory" : "mallory@example.com";
    String landing = browser.finish(browser.approve(swapped, who, null));
    assertTrue(landing.startsWith("/signin?error=provider_error"), landing);
    assertSignedOut(browser);
  }

  @ParameterizedTest
  @ValueSource(strings = {"wrong_audience", "wrong_issuer", "expired", "bad_signature"})
  void defectiveIdTokenIsRefused(String fault) {
    WebSession browser = new WebSession();
    String callback = browser.approve(browser.startSignIn(node, "google", null), "oscar@example.com", "&fault=" + fault);
    String landing = browser.finish(callback);
    assertTrue(landing.startsWith("/signin?error=provider_error"), fault + " → " + landing);
    assertSignedOut(browser);
  }

  @Test
  void cancellingAtTheProviderSaysSo() {
    WebSession browser = new WebSession();
    String authorize = browser.startSignIn(node, "github", null);
    String callback = browser.location(browser.get(authorize + "&decision=deny"));
    assertTrue(browser.finish(callback).startsWith("/signin?error=access_denied"));
  }

  @Test
  void sameVerifiedEmailFromAnotherProviderIsNotMerged() {
    new WebSession().signIn(node, "github", "peggy");
    long accountsBefore = count("SELECT count(*) FROM accounts");
    WebSession browser = new WebSession();
    String landing = browser.signIn(node, "google", "peggy@example.com");
    assertTrue(landing.startsWith("/signin?error=email_in_use"), landing);
    Map<String, String> params = WebSession.query(landing);
    assertEquals("peggy@example.com", params.get("email"));
    assertEquals("github", params.get("existing"));
    assertEquals(accountsBefore, count("SELECT count(*) FROM accounts"), "no account was created or merged");
    assertSignedOut(browser);
  }

  @Test
  void signingInWithASecondProviderWhileSignedInLinksIt() {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", "rupert");
    String accountId = browser.me(node).getString("id");
    String landing = browser.finish(browser.approve(browser.startSignIn(node, "google", "/account"),
        "rupert@example.com", null));
    assertEquals("/account", landing);
    JsonObject me = browser.me(node);
    assertEquals(accountId, me.getString("id"));
    List<String> providers = me.getJsonArray("identities").stream()
        .map(i -> ((JsonObject) i).getString("provider")).toList();
    assertEquals(List.of("github", "google"), providers);
  }

  @Test
  void linkingASecondIdentityOfTheSameProviderIsRefused() {
    WebSession browser = new WebSession();
    browser.signIn(node, "google", "uma@example.com");
    String landing = browser.finish(browser.approve(browser.startSignIn(node, "google", null), "uma2@example.com", null));
    assertTrue(landing.startsWith("/signin?error=provider_already_linked"), landing);
    assertEquals(1, browser.me(node).getJsonArray("identities").size());
  }

  @Test
  void identityOfAnotherAccountIsNotLinked() {
    new WebSession().signIn(node, "google", "walter@example.com");
    WebSession browser = new WebSession();
    browser.signIn(node, "github", "wanda");
    String landing = browser.finish(browser.approve(browser.startSignIn(node, "google", null), "walter@example.com", null));
    assertTrue(landing.startsWith("/signin?error=identity_in_use"), landing);
  }

  @Test
  void configuredOperatorLoginGetsTheOperatorRole() {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", "operator");
    assertTrue(browser.me(node).getJsonArray("roles").contains("operator"));
  }

  @Test
  void returnToMustStayOnThisSite() {
    for (String hostile : List.of("https://evil.example/", "//evil.example/x", "/\\evil.example")) {
      WebSession browser = new WebSession();
      String landing = browser.finish(browser.approve(browser.startSignIn(node, "github", hostile), "sybil", null));
      assertEquals("/", landing, hostile);
    }
  }

  @Test
  void logoutNeedsTheCsrfTokenAndEndsTheSession() {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", "trent");
    HttpResponse<String> forged = browser.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(node.url("/auth/logout")))
        .header("Origin", node.url("")).POST(java.net.http.HttpRequest.BodyPublishers.noBody()));
    assertEquals(403, forged.statusCode());
    assertEquals(200, browser.get(node.url("/api/v1/me")).statusCode(), "still signed in");

    assertEquals(204, browser.write("POST", node.url("/auth/logout"), null).statusCode());
    assertSignedOut(browser);
  }

  @Test
  void unknownProviderIs404Problem() {
    HttpResponse<String> response = new WebSession().get(node.url("/auth/myspace"));
    assertEquals(404, response.statusCode());
    assertTrue(response.body().contains("github, google"), response.body());
  }

  private static void assertSignedOut(WebSession browser) {
    assertEquals(401, browser.get(node.url("/api/v1/me")).statusCode());
  }

  private static long count(String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }
}
