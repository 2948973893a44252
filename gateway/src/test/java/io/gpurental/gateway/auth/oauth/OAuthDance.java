package io.gpurental.gateway.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.auth.signin.Pkce;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * An MCP client's OAuth flow against a test node, driven over HTTP like a browser that keeps
 * cookies: authorize, sign in at the sandbox GitHub, consent, exchange the code.
 */
final class OAuthDance {
  static final String REDIRECT = "http://127.0.0.1:9/callback";
  private final TestGateway node;
  final WebSession browser = new WebSession();
  private final String login;
  private boolean signedIn;

  OAuthDance(TestGateway node, String login) {
    this.node = node;
    this.login = login;
  }

  /** The outcome of one authorization: the code (or error) sent back, and the verifier. */
  record Authorized(Map<String, String> callback, String verifier) {
    String code() {
      return callback.get("code");
    }
  }

  static String register(TestGateway node, String name) {
    HttpResponse<String> registered = node.send(HttpRequest.newBuilder(URI.create(node.url("/oauth/register")))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("client_name", name)
            .put("redirect_uris", new JsonArray().add(REDIRECT)).encode())));
    assertEquals(201, registered.statusCode(), registered.body());
    return new JsonObject(registered.body()).getString("client_id");
  }

  /** GET /oauth/authorize with these parameters (null values left out); the redirect it answers. */
  /** The authorization endpoint's answer itself (not followed). */
  HttpResponse<String> authorizeAnswer(Map<String, String> params) {
    return browser.get(node.url("/oauth/authorize?" + form(params)));
  }

  String authorizeRedirect(Map<String, String> params) {
    HttpResponse<String> response = browser.get(node.url("/oauth/authorize?" + form(params)));
    return browser.location(response);
  }

  static Map<String, String> request(String clientId, String challenge) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("response_type", "code");
    params.put("client_id", clientId);
    params.put("redirect_uri", REDIRECT);
    params.put("code_challenge", challenge);
    params.put("code_challenge_method", "S256");
    params.put("scope", "catalog:read reservations:read reservations:write");
    params.put("state", "st-" + challenge.substring(0, 8));
    return params;
  }

  /** Authorizes with PKCE S256 and consents with this form (budget fields, scope ticks). */
  Authorized authorize(String clientId, Map<String, String> consent) {
    String verifier = Pkce.newVerifier();
    Map<String, String> params = request(clientId, Pkce.challenge(verifier));
    params.put("resource", node.url("/mcp"));
    String consentPath = toConsent(authorizeRedirect(params));
    Map<String, String> callback = WebSession.query(decide(consentPath, consent, true));
    assertEquals(params.get("state"), callback.get("state"));
    return new Authorized(callback, verifier);
  }

  /** Follows a redirect to the consent page through sign-in when needed; the consent page path. */
  String toConsent(String location) {
    if (location.startsWith("/signin?return_to=")) {
      String returnTo = WebSession.query(location).get("return_to");
      String landing = browser.finish(browser.approve(browser.startSignIn(node, "github", returnTo), login, null));
      assertEquals(returnTo, landing, "the sign-in returns to the consent page");
      signedIn = true;
      return landing;
    }
    assertTrue(signedIn && location.startsWith("/oauth/consent?request="), location);
    return location;
  }

  /** Shows the consent page and submits it; the redirect URI the gateway answered with. */
  String decide(String consentPath, Map<String, String> fields, boolean withCsrf) {
    HttpResponse<String> page = consentPage(consentPath);
    Map<String, String> form = new LinkedHashMap<>();
    form.put("request", hidden(page.body(), "request"));
    if (withCsrf) {
      form.put("csrf_token", hidden(page.body(), "csrf_token"));
    }
    form.putAll(fields);
    HttpResponse<String> decided = submit(form, node.url(""));
    return browser.location(decided);
  }

  HttpResponse<String> consentPage(String consentPath) {
    HttpResponse<String> page = browser.get(node.url(consentPath));
    assertEquals(200, page.statusCode(), page.body());
    return page;
  }

  HttpResponse<String> submit(Map<String, String> form, String origin) {
    String body = form.entrySet().stream().flatMap(e -> e.getKey().equals("scope")
            ? java.util.Arrays.stream(e.getValue().split(" ")).map(v -> Map.entry("scope", v)) : java.util.stream.Stream.of(e))
        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
    HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(node.url("/oauth/consent")))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (origin != null) {
      post.header("Origin", origin.replaceAll("/+$", ""));
    }
    return browser.send(post);
  }

  static Map<String, String> allow(String... budget) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("decision", "allow");
    form.put("scope", "catalog:read reservations:read reservations:write");
    for (int i = 0; i < budget.length; i += 2) {
      form.put(budget[i], budget[i + 1]);
    }
    return form;
  }

  static String hidden(String html, String name) {
    Matcher found = Pattern.compile("name=\"" + name + "\" value=\"([^\"]+)\"").matcher(html);
    assertTrue(found.find(), "the consent page has " + name);
    return found.group(1);
  }

  /** POST /oauth/token with this form. */
  static HttpResponse<String> token(TestGateway node, Map<String, String> params) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url("/oauth/token")))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form(params))));
  }

  static Map<String, String> codeExchange(String code, String clientId, String verifier) {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("grant_type", "authorization_code");
    params.put("code", code);
    params.put("client_id", clientId);
    params.put("redirect_uri", REDIRECT);
    params.put("code_verifier", verifier);
    return params;
  }

  /** Exchanges the code; the token response (asserted 200). */
  JsonObject tokens(String clientId, Authorized authorized) {
    Map<String, String> params = codeExchange(authorized.code(), clientId, authorized.verifier());
    params.put("resource", node.url("/mcp"));
    HttpResponse<String> response = token(node, params);
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("no-store", response.headers().firstValue("Cache-Control").orElse(""));
    return new JsonObject(response.body());
  }

  static String form(Map<String, String> params) {
    return params.entrySet().stream().filter(e -> e.getValue() != null)
        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }
}
