package io.gpurental.gateway.reliability;

import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;

/** Sign-in through the sandbox GitHub against a node in another JVM, as a browser does it. */
public final class RemoteSignIn {
  private RemoteSignIn() {}

  /** A browser session of {@code login} on {@code node}, its CSRF token remembered. */
  public static WebSession browser(GatewayProcess node, String login) {
    WebSession browser = new WebSession();
    String authorize = browser.location(expect(302, browser.get(node.url("/auth/github"))));
    String callback = browser.location(expect(302, browser.get(authorize + "&login=" + login)));
    expect(302, browser.get(callback));
    HttpResponse<String> me = expect(200, browser.get(node.url("/api/v1/me")));
    browser.useCsrfToken(new JsonObject(me.body()).getString("csrf_token"));
    return browser;
  }

  /** An API token of {@code login} with every renter scope. */
  public static String renterToken(GatewayProcess node, String login) {
    return token(node, login, new JsonArray().add("catalog:read").add("reservations:write").add("payments:write"));
  }

  /** An API token of the sandbox operator with every renter scope and the operator scope. */
  public static String operatorToken(GatewayProcess node) {
    return token(node, "operator", new JsonArray().add("catalog:read").add("reservations:write")
        .add("payments:write").add("operator"));
  }

  private static String token(GatewayProcess node, String login, JsonArray scopes) {
    WebSession browser = browser(node, login);
    HttpResponse<String> created = expect(201, browser.write("POST", node.url("/api/v1/tokens"), new JsonObject()
        .put("name", "faults").put("scopes", scopes)));
    return new JsonObject(created.body()).getString("token");
  }

  private static HttpResponse<String> expect(int status, HttpResponse<String> response) {
    if (response.statusCode() != status) {
      throw new AssertionError("expected " + status + ", got " + response.statusCode() + " from "
          + response.uri() + ": " + response.body());
    }
    return response;
  }
}
