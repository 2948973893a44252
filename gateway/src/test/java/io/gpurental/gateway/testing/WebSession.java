package io.gpurental.gateway.testing;

import io.vertx.core.json.JsonObject;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One browser-like client: its own cookie jar, redirects followed by hand so tests can inspect
 * and tamper with each step of a sign-in.
 */
public final class WebSession {
  private final CookieManager cookies = new CookieManager();
  private final HttpClient http = HttpClient.newBuilder()
      .cookieHandler(cookies)
      .followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(5))
      .build();
  private String csrfToken;

  public HttpResponse<String> get(String url) {
    return send(HttpRequest.newBuilder(URI.create(url)).GET());
  }

  public HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      HttpRequest built = request.timeout(Duration.ofSeconds(30)).build();
      HttpResponse<String> response = http.send(built, HttpResponse.BodyHandlers.ofString());
      ResponseContract.check(built, response);
      return response;
    } catch (AssertionError e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("request failed: " + e.getMessage(), e);
    }
  }

  /** A state-changing request as the web UI sends it: JSON, CSRF token, same-origin Origin. */
  public HttpResponse<String> write(String method, String url, JsonObject body) {
    URI uri = URI.create(url);
    HttpRequest.Builder request = HttpRequest.newBuilder(uri)
        .header("Origin", uri.getScheme() + "://" + uri.getAuthority())
        .header("X-CSRF-Token", csrfToken == null ? "" : csrfToken)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.encode()));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    return send(request);
  }

  /** A request with this browser's cookies whose body is read as it arrives (e.g. an event stream). */
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest.Builder request,
      HttpResponse.BodyHandler<T> body) {
    return http.sendAsync(request.build(), body);
  }

  public String location(HttpResponse<String> response) {
    return response.headers().firstValue("Location").orElseThrow(
        () -> new AssertionError("expected a redirect, got " + response.statusCode() + ": " + response.body()));
  }

  /** Starts sign-in at the gateway and returns the provider's authorize URL it redirected to. */
  public String startSignIn(TestGateway node, String provider, String returnTo) {
    HttpResponse<String> start = get(node.url("/auth/" + provider + (returnTo == null ? "" : "?return_to=" + java.net.URLEncoder.encode(returnTo, StandardCharsets.UTF_8))));
    if (start.statusCode() != 302) {
      throw new AssertionError("sign-in start answered " + start.statusCode() + ": " + start.body());
    }
    return location(start);
  }

  /** Approves at the sandbox provider and returns the gateway callback URL it redirected to. */
  public String approve(String authorizeUrl, String who, String extraParams) {
    String param = authorizeUrl.contains("/sandbox/github/") ? "login" : "login_hint";
    HttpResponse<String> approved = get(authorizeUrl + "&" + param + "=" + who + (extraParams == null ? "" : extraParams));
    return location(approved);
  }

  /** Follows the callback and returns where the gateway sent the browser afterwards. */
  public String finish(String callbackUrl) {
    return location(get(callbackUrl));
  }

  /** The whole sign-in; returns the final redirect and remembers the CSRF token. */
  public String signIn(TestGateway node, String provider, String who) {
    String landing = finish(approve(startSignIn(node, provider, null), who, null));
    refreshCsrf(node);
    return landing;
  }

  public JsonObject me(TestGateway node) {
    HttpResponse<String> response = get(node.url("/api/v1/me"));
    if (response.statusCode() != 200) {
      throw new AssertionError("GET /me answered " + response.statusCode() + ": " + response.body());
    }
    return new JsonObject(response.body());
  }

  public void refreshCsrf(TestGateway node) {
    HttpResponse<String> response = get(node.url("/api/v1/me"));
    csrfToken = response.statusCode() == 200 ? new JsonObject(response.body()).getString("csrf_token") : null;
  }

  /** The CSRF token this browser sends on writes (from its last /me), or null. */
  public String csrfToken() {
    return csrfToken;
  }

  /** Sends this CSRF token from now on (read from a /me answer the caller fetched itself). */
  public void useCsrfToken(String token) {
    csrfToken = token;
  }

  public Optional<HttpCookie> cookie(String name) {
    return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name)).findFirst();
  }

  public static Map<String, String> query(String url) {
    Map<String, String> params = new LinkedHashMap<>();
    String query = URI.create(url).getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        String[] kv = pair.split("=", 2);
        params.put(kv[0], kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
      }
    }
    return params;
  }
}
