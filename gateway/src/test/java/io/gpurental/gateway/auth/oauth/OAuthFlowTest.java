package io.gpurental.gateway.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.agents.McpClients;
import io.gpurental.gateway.auth.signin.Pkce;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.modelcontextprotocol.client.McpSyncClient;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway as the OAuth 2.1 authorization server of {@code /mcp}, end to end against a node
 * in sandbox mode: metadata, registration, PKCE S256, sign-in and consent with a budget, tokens
 * bound to {@code /mcp}, refresh rotation, revocation.
 */
@GatewayTest(settings = "GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE=1000")
class OAuthFlowTest {
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  void metadataPointsClientsAtTheGatewayAsAuthorizationServer() {
    for (String path : new String[] {"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"}) {
      JsonObject resource = new JsonObject(node.get(path).body());
      assertEquals(node.url("/mcp"), resource.getString("resource"));
      assertEquals(node.url(""), resource.getJsonArray("authorization_servers").getString(0));
      assertTrue(resource.getJsonArray("scopes_supported").contains("reservations:write"));
    }
    HttpResponse<String> response = node.get("/.well-known/oauth-authorization-server");
    assertEquals(200, response.statusCode());
    JsonObject server = new JsonObject(response.body());
    assertEquals(node.url(""), server.getString("issuer"));
    assertEquals(node.url("/oauth/authorize"), server.getString("authorization_endpoint"));
    assertEquals(node.url("/oauth/token"), server.getString("token_endpoint"));
    assertEquals(node.url("/oauth/register"), server.getString("registration_endpoint"));
    assertEquals(node.url("/oauth/revoke"), server.getString("revocation_endpoint"));
    assertEquals("[\"S256\"]", server.getJsonArray("code_challenge_methods_supported").encode());
    assertEquals("[\"none\"]", server.getJsonArray("token_endpoint_auth_methods_supported").encode());
    assertEquals("[\"authorization_code\",\"refresh_token\"]", server.getJsonArray("grant_types_supported").encode());
    assertEquals(true, server.getBoolean("client_id_metadata_document_supported"));
  }

  @Test
  void registeredClientGetsABudgetedGrantThatListsToolsRefreshesAndEndsWhenRevoked() {
    String clientId = OAuthDance.register(node, "Test Agent");
    OAuthDance dance = new OAuthDance(node, "oauth-olga");
    String verifier = Pkce.newVerifier();
    Map<String, String> params = OAuthDance.request(clientId, Pkce.challenge(verifier));
    params.put("resource", node.url("/mcp"));
    String consentPath = dance.toConsent(dance.authorizeRedirect(params));
    String page = dance.consentPage(consentPath).body();
    assertTrue(page.contains("Test Agent") && page.contains("127.0.0.1") && page.contains("reservations:write"), page);

    Map<String, String> callback = WebSession.query(dance.decide(consentPath, OAuthDance.allow("daily_cap", "50.00",
        "max_price_per_gpu_hour", "3.5", "max_hours", "4", "approval_threshold", "20"), true));
    assertEquals(params.get("state"), callback.get("state"));
    assertEquals(node.url(""), callback.get("iss"));
    JsonObject tokens = dance.tokens(clientId, new OAuthDance.Authorized(callback, verifier));
    String access = tokens.getString("access_token");
    assertTrue(access.startsWith("gpr_oat_"), access);
    assertEquals("Bearer", tokens.getString("token_type"));
    assertEquals(3600, tokens.getInteger("expires_in"));
    assertEquals("catalog:read reservations:read reservations:write", tokens.getString("scope"));

    // the grant is an oauth token with the consented budget; only hashes of its secrets are stored
    var grant = node.sql("SELECT t.id, t.kind, b.daily_cap, b.max_price_per_gpu_hour, b.max_hours, b.approval_threshold"
        + " FROM api_tokens t JOIN token_budgets b ON b.token_id = t.id JOIN oauth_grants g ON g.token_id = t.id"
        + " WHERE g.client_id = '" + clientId + "'").iterator().next();
    assertEquals("oauth", grant.getString("kind"));
    assertEquals(5000L, grant.getLong("daily_cap"));
    assertEquals(350L, grant.getLong("max_price_per_gpu_hour"));
    assertEquals(4, grant.getInteger("max_hours"));
    assertEquals(2000L, grant.getLong("approval_threshold"));
    String grantId = grant.getString("id");
    assertEquals(0L, node.sql("SELECT count(*) FROM oauth_tokens WHERE octet_length(token_hash) <> 32"
        + " OR position(convert_to('gpr_', 'UTF8') IN token_hash) > 0").iterator().next().getLong(0));
    assertEquals(0L, node.sql("SELECT count(*) FROM oauth_codes WHERE octet_length(code_hash) <> 32")
        .iterator().next().getLong(0));

    try (McpSyncClient client = McpClients.sdk(node, access)) {
      client.initialize();
      assertTrue(client.listTools().tools().stream().anyMatch(tool -> tool.name().equals("search_offers")));
      JsonObject budget = McpClients.call(client, "get_budget", new JsonObject());
      assertEquals(grantId, budget.getString("token_id"));
      assertEquals(5000L, budget.getJsonObject("budget").getLong("daily_cap"), "the budget an API token would report");
    }
    assertEquals(401, mcp(access, "/api/v1/reservations").statusCode(), "access tokens are for /mcp only");

    HttpResponse<String> refreshed = OAuthDance.token(node, Map.of("grant_type", "refresh_token",
        "refresh_token", tokens.getString("refresh_token"), "client_id", clientId));
    assertEquals(200, refreshed.statusCode(), refreshed.body());
    String newAccess = new JsonObject(refreshed.body()).getString("access_token");
    assertNotEquals(access, newAccess);
    assertNotEquals(tokens.getString("refresh_token"), new JsonObject(refreshed.body()).getString("refresh_token"));
    assertEquals(200, mcp(newAccess, "/mcp").statusCode());

    JsonObject listed = new JsonObject(dance.browser.get(node.url("/api/v1/oauth/grants")).body());
    JsonObject listedGrant = listed.getJsonArray("data").getJsonObject(0);
    assertEquals(grantId, listedGrant.getString("id"));
    assertEquals("Test Agent", listedGrant.getString("client_name"));
    assertEquals("127.0.0.1", listedGrant.getString("redirect_host"));
    assertFalse(dance.browser.get(node.url("/api/v1/tokens")).body().contains(grantId), "grants are not API tokens");

    dance.browser.refreshCsrf(node);
    assertEquals(204, dance.browser.write("DELETE", node.url("/api/v1/oauth/grants/" + grantId), null).statusCode());
    assertEquals(401, mcp(newAccess, "/mcp").statusCode(), "revoked on the Account page: refused at once");
    assertEquals(400, OAuthDance.token(node, Map.of("grant_type", "refresh_token", "refresh_token",
        new JsonObject(refreshed.body()).getString("refresh_token"), "client_id", clientId)).statusCode());
  }

  @Test
  void aReusedRefreshTokenRevokesTheGrant() {
    String clientId = OAuthDance.register(node, "Leaky Agent");
    OAuthDance dance = new OAuthDance(node, "oauth-rudi");
    JsonObject tokens = dance.tokens(clientId, dance.authorize(clientId, OAuthDance.allow()));
    Map<String, String> refresh = Map.of("grant_type", "refresh_token", "refresh_token",
        tokens.getString("refresh_token"), "client_id", clientId);
    HttpResponse<String> first = OAuthDance.token(node, refresh);
    assertEquals(200, first.statusCode(), first.body());
    HttpResponse<String> replay = OAuthDance.token(node, refresh);
    assertEquals(400, replay.statusCode());
    assertEquals("invalid_grant", new JsonObject(replay.body()).getString("error"));
    assertTrue(replay.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    assertEquals(401, mcp(new JsonObject(first.body()).getString("access_token"), "/mcp").statusCode(),
        "the rotated token's access ends with its grant");

    String ofClient = " WHERE token_id IN (SELECT token_id FROM oauth_grants WHERE client_id = '" + clientId + "')";
    node.sql("UPDATE oauth_tokens SET expires_at = now() - interval '2 days'" + ofClient);
    TestGateway.await(node.gateway().jobs().runNow(io.gpurental.gateway.Gateway.PRUNE_OAUTH));
    assertEquals(0L, node.sql("SELECT count(*) FROM oauth_tokens" + ofClient).iterator().next().getLong(0),
        "expired tokens are pruned");
  }

  @Test
  void theRevocationEndpointEndsTheGrantOfARefreshToken() {
    String clientId = OAuthDance.register(node, "Polite Agent");
    OAuthDance dance = new OAuthDance(node, "oauth-vera");
    JsonObject tokens = dance.tokens(clientId, dance.authorize(clientId, OAuthDance.allow()));
    assertEquals(200, mcp(tokens.getString("access_token"), "/mcp").statusCode());
    HttpResponse<String> revoked = node.send(HttpRequest.newBuilder(URI.create(node.url("/oauth/revoke")))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("token=" + tokens.getString("refresh_token"))));
    assertEquals(200, revoked.statusCode(), revoked.body());
    assertEquals(401, mcp(tokens.getString("access_token"), "/mcp").statusCode());
  }

  @Test
  void tokensForAnotherResourceAreRefused() {
    String clientId = OAuthDance.register(node, "Confused Agent");
    OAuthDance dance = new OAuthDance(node, "oauth-wim");
    Map<String, String> elsewhere = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    elsewhere.put("resource", "https://elsewhere.example/mcp");
    assertRefusedHere(dance.authorizeAnswer(elsewhere), "invalid_target");

    OAuthDance.Authorized authorized = dance.authorize(clientId, OAuthDance.allow());
    Map<String, String> exchange = OAuthDance.codeExchange(authorized.code(), clientId, authorized.verifier());
    exchange.put("resource", "https://elsewhere.example/mcp");
    HttpResponse<String> wrongTarget = OAuthDance.token(node, exchange);
    assertEquals("invalid_target", new JsonObject(wrongTarget.body()).getString("error"), wrongTarget.body());

    OAuthDance.Authorized second = dance.authorize(clientId, OAuthDance.allow());
    String access = dance.tokens(clientId, second).getString("access_token");
    assertEquals(200, mcp(access, "/mcp").statusCode());
    // a token minted for another resource (here: the same grant's token re-bound in the store)
    node.sql("UPDATE oauth_tokens SET resource = 'https://elsewhere.example/mcp' WHERE kind = 'access'"
        + " AND token_id IN (SELECT token_id FROM oauth_grants WHERE client_id = '" + clientId + "')");
    HttpResponse<String> foreign = mcp(access, "/mcp");
    assertEquals(401, foreign.statusCode(), foreign.body());
    assertTrue(foreign.headers().firstValue("WWW-Authenticate").orElse("").contains("resource_metadata="));
  }

  @Test
  void pkceIsS256OnlyAndACodeIsUsedOnce() {
    String clientId = OAuthDance.register(node, "Careless Agent");
    OAuthDance dance = new OAuthDance(node, "oauth-xia");
    Map<String, String> plain = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    plain.put("code_challenge_method", "plain");
    assertTrue(assertRefusedHere(dance.authorizeAnswer(plain), "invalid_request").contains("S256"));
    Map<String, String> none = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    none.remove("code_challenge");
    none.remove("code_challenge_method");
    assertRefusedHere(dance.authorizeAnswer(none), "invalid_request");

    OAuthDance.Authorized authorized = dance.authorize(clientId, OAuthDance.allow());
    Map<String, String> noVerifier = OAuthDance.codeExchange(authorized.code(), clientId, authorized.verifier());
    noVerifier.remove("code_verifier");
    HttpResponse<String> missing = OAuthDance.token(node, noVerifier);
    assertEquals(400, missing.statusCode());
    assertEquals("invalid_request", new JsonObject(missing.body()).getString("error"));
    assertTrue(new JsonObject(missing.body()).containsKey("error_description"));

    HttpResponse<String> wrong = OAuthDance.token(node, OAuthDance.codeExchange(authorized.code(), clientId,
        Pkce.newVerifier()));
    assertEquals("invalid_grant", new JsonObject(wrong.body()).getString("error"), "a wrong verifier spends the code");

    OAuthDance.Authorized fresh = dance.authorize(clientId, OAuthDance.allow());
    JsonObject tokens = dance.tokens(clientId, fresh);
    HttpResponse<String> reused = OAuthDance.token(node, OAuthDance.codeExchange(fresh.code(), clientId,
        fresh.verifier()));
    assertEquals(400, reused.statusCode());
    assertEquals("invalid_grant", new JsonObject(reused.body()).getString("error"));
    assertEquals(401, mcp(tokens.getString("access_token"), "/mcp").statusCode(),
        "a reused code revokes the grant made with it");
    HttpResponse<String> unsupported = OAuthDance.token(node, Map.of("grant_type", "password"));
    assertEquals("unsupported_grant_type", new JsonObject(unsupported.body()).getString("error"));
  }

  @Test
  void theConsentFormStartsFromTheAccountsDefaultBudget() {
    String clientId = OAuthDance.register(node, "Thrifty Agent");
    OAuthDance dance = new OAuthDance(node, "oauth-dora");
    Map<String, String> params = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    String consentPath = dance.toConsent(dance.authorizeRedirect(params));
    assertFalse(dance.consentPage(consentPath).body().contains("value=\"12.50\""));
    dance.browser.refreshCsrf(node);
    var set = dance.browser.write("PUT", node.url("/api/v1/account/default-budget"),
        new JsonObject().put("daily_cap", 1250).put("max_hours", 6));
    assertEquals(200, set.statusCode(), set.body());

    String page = dance.consentPage(consentPath).body();
    assertTrue(page.contains("name=\"daily_cap\" inputmode=\"decimal\" placeholder=\"no limit\" value=\"12.50\""), page);
    assertTrue(page.contains("name=\"max_hours\" inputmode=\"decimal\" placeholder=\"no limit\" value=\"6\""), page);
    assertFalse(page.contains("name=\"monthly_cap\" inputmode=\"decimal\" placeholder=\"no limit\" value="), page);
  }

  @Test
  void consentNeedsTheSessionsCsrfTokenAndTheGatewaysOrigin() {
    String clientId = OAuthDance.register(node, "Sneaky Agent");
    OAuthDance dance = new OAuthDance(node, "oauth-yann");
    Map<String, String> params = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    String consentPath = dance.toConsent(dance.authorizeRedirect(params));
    String page = dance.consentPage(consentPath).body();
    Map<String, String> form = OAuthDance.allow();
    form.put("request", OAuthDance.hidden(page, "request"));
    assertEquals(403, dance.submit(form, node.url("")).statusCode(), "no CSRF token");
    form.put("csrf_token", OAuthDance.hidden(page, "csrf_token"));
    assertEquals(403, dance.submit(form, "https://evil.example").statusCode(), "foreign origin");
    assertEquals(403, dance.submit(form, null).statusCode(), "no origin");
    assertEquals(0L, node.sql("SELECT count(*) FROM oauth_grants WHERE client_id = '" + clientId + "'").iterator()
        .next().getLong(0));

    Map<String, String> deny = new java.util.LinkedHashMap<>(Map.of("decision", "deny"));
    Map<String, String> denied = WebSession.query(dance.decide(consentPath, deny, true));
    assertEquals("access_denied", denied.get("error"));
    assertEquals(params.get("state"), denied.get("state"));
  }

  @Test
  void unknownClientsAndUnregisteredRedirectsAreNotRedirectedTo() {
    OAuthDance dance = new OAuthDance(node, "oauth-zoe");
    Map<String, String> unknown = OAuthDance.request("mcpc_nobody", Pkce.challenge(Pkce.newVerifier()));
    assertRefusedHere(dance.authorizeAnswer(unknown), "invalid_client");
    String clientId = OAuthDance.register(node, "Honest Agent");
    Map<String, String> hijack = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    hijack.put("redirect_uri", "https://evil.example/callback");
    assertRefusedHere(dance.authorizeAnswer(hijack), "invalid_request");
    HttpResponse<String> badRegistration = node.send(HttpRequest.newBuilder(URI.create(node.url("/oauth/register")))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
            "{\"client_name\":\"x\",\"redirect_uris\":[\"http://evil.example/cb\"]}")));
    assertEquals(400, badRegistration.statusCode());
    assertEquals("invalid_client_metadata", new JsonObject(badRegistration.body()).getString("error"));
  }

  /** A tools/list call with this bearer token. */
  static HttpResponse<String> mcp(String token, String path) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url(path)))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2025-11-25");
    if (path.equals("/mcp")) {
      request.POST(HttpRequest.BodyPublishers.ofString(
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}"));
    } else {
      request.GET();
    }
    return node.send(request);
  }

  /**
   * Issue 33's open redirect: a client anyone registered, with its own redirect URI, and a request
   * the gateway refuses (here `response_type=token`). That answered an immediate 302 from this
   * domain to the stranger's; now every refusal before consent is a 400 page here.
   */
  @Test
  void aRefusedAuthorizationNeverRedirectsToTheClient() {
    String clientId = OAuthDance.register(node, "Sneaky Redirector");
    OAuthDance dance = new OAuthDance(node, "oauth-ozzy");
    Map<String, String> implicit = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    implicit.put("response_type", "token");
    assertRefusedHere(dance.authorizeAnswer(implicit), "unsupported_response_type");
    Map<String, String> unknownScope = OAuthDance.request(clientId, Pkce.challenge(Pkce.newVerifier()));
    unknownScope.put("scope", "everything");
    assertRefusedHere(dance.authorizeAnswer(unknownScope), "invalid_scope");
  }

  /** A 400 HTML page naming {@code error}, with no Location; its text. */
  private static String assertRefusedHere(HttpResponse<String> answer, String error) {
    assertEquals(400, answer.statusCode(), answer.headers().map() + " " + answer.body());
    assertTrue(answer.headers().firstValue("Location").isEmpty(), "no redirect: " + answer.headers().map());
    assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), String.valueOf(answer.headers().map()));
    assertTrue(answer.body().contains("<code>" + error + "</code>"), answer.body());
    return answer.body();
  }
}
