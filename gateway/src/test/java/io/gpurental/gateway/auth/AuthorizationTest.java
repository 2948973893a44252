package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** CSRF on cookie writes, anonymous callers, and the operator role. */
@GatewayTest
class AuthorizationTest {
  private static TestGateway node;
  private static WebSession renter;
  private static WebSession operator;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    renter = new WebSession();
    renter.signIn(node, "github", "dave");
    operator = new WebSession();
    operator.signIn(node, "github", "operator");
  }

  private static final JsonObject TOKEN_REQUEST =
      new JsonObject().put("name", "csrf").put("scopes", new JsonArray().add("catalog:read"));

  @Test
  void cookieWriteWithoutCsrfTokenIsRefused() {
    HttpResponse<String> response = renter.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/tokens")))
        .header("Content-Type", "application/json").header("Origin", node.url(""))
        .POST(HttpRequest.BodyPublishers.ofString(TOKEN_REQUEST.encode())));
    assertEquals(403, response.statusCode());
    assertTrue(response.body().contains("X-CSRF-Token"), response.body());
  }

  @Test
  void cookieWriteFromAForeignOriginIsRefused() {
    String csrf = renter.me(node).getString("csrf_token");
    HttpResponse<String> response = renter.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/tokens")))
        .header("Content-Type", "application/json").header("Origin", "https://evil.example")
        .header("X-CSRF-Token", csrf)
        .POST(HttpRequest.BodyPublishers.ofString(TOKEN_REQUEST.encode())));
    assertEquals(403, response.statusCode());
    assertTrue(response.body().contains("Origin"), response.body());
  }

  @Test
  void cookieWriteWithTokenAndOriginIsAccepted() {
    assertEquals(201, renter.write("POST", node.url("/api/v1/tokens"), TOKEN_REQUEST).statusCode());
  }

  @Test
  void anonymousCallerGets401OnProtectedRoutes() {
    WebSession anonymous = new WebSession();
    assertEquals(401, anonymous.get(node.url("/api/v1/tokens")).statusCode());
    assertEquals(401, anonymous.get(node.url("/api/v1/me")).statusCode());
    assertEquals(200, anonymous.get(node.url("/api/v1/version")).statusCode(), "public stays public");
  }

  @Test
  void pathVariantsOfProtectedRoutesStillNeedAuthentication() {
    WebSession anonymous = new WebSession();
    for (String path : java.util.List.of("/api/v1/tokens/", "/api/v1/%74okens", "/api/v1//tokens", "/api/v1/me/")) {
      int status = anonymous.get(node.url(path)).statusCode();
      assertTrue(status == 401 || status == 404, path + " answered " + status);
    }
  }

  @Test
  void renterOnOperatorRoutesGets403() {
    String renterId = renter.me(node).getString("id");
    HttpResponse<String> response = renter.write("PUT", node.url("/api/v1/accounts/" + renterId + "/roles/operator"), null);
    assertEquals(403, response.statusCode());
    assertTrue(response.body().contains("operator"), response.body());
    assertFalse(renter.me(node).getJsonArray("roles").contains("operator"));
  }

  @Test
  void operatorGrantsAndRevokesTheRoleWithAnAuditTrail() {
    WebSession erin = new WebSession();
    erin.signIn(node, "github", "erin");
    String erinId = erin.me(node).getString("id");
    assertEquals(204, operator.write("PUT", node.url("/api/v1/accounts/" + erinId + "/roles/operator"), null).statusCode());
    assertTrue(erin.me(node).getJsonArray("roles").contains("operator"), "effective on the next request");
    assertEquals(204, operator.write("DELETE", node.url("/api/v1/accounts/" + erinId + "/roles/operator"), null).statusCode());
    assertFalse(erin.me(node).getJsonArray("roles").contains("operator"));
    long audits = node.sql("SELECT count(*) FROM audit_log WHERE target = '" + erinId + "' AND action LIKE 'role.%'")
        .iterator().next().getLong(0);
    assertEquals(2, audits);
  }

  @Test
  void grantingToAnUnknownAccountIs404() {
    assertEquals(404, operator.write("PUT", node.url("/api/v1/accounts/acc_doesnotexist/roles/operator"), null)
        .statusCode());
  }

  @Test
  void operatorTokenLosesTheOperatorScopeWithTheRole() {
    WebSession frank = new WebSession();
    frank.signIn(node, "github", "frank");
    String frankId = frank.me(node).getString("id");
    operator.write("PUT", node.url("/api/v1/accounts/" + frankId + "/roles/operator"), null);
    frank.refreshCsrf(node);
    String secret = new JsonObject(frank.write("POST", node.url("/api/v1/tokens"), new JsonObject()
        .put("name", "ops").put("scopes", new JsonArray().add("operator"))).body()).getString("token");
    operator.write("DELETE", node.url("/api/v1/accounts/" + frankId + "/roles/operator"), null);
    HttpResponse<String> response = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/accounts/" + frankId
        + "/roles/operator"))).header("Authorization", "Bearer " + secret).PUT(HttpRequest.BodyPublishers.noBody()));
    assertEquals(403, response.statusCode());
  }
}
