package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sessions and revocations hold across the cluster and survive the node that made them. */
class SessionClusterTest {
  @Test
  void sessionFromNodeAWorksOnNodeBAndOutlivesNodeA() {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    TestGateway a = TestGateway.start(cluster.get(0));
    try (TestGateway b = TestGateway.start(cluster.get(1))) {
      WebSession browser = new WebSession();
      browser.signIn(a, "github", "nina");
      String accountId = browser.me(a).getString("id");
      assertEquals(accountId, browser.me(b).getString("id"), "node B honours node A's session");

      JsonObject token = new JsonObject(browser.write("POST", a.url("/api/v1/tokens"), new JsonObject()
          .put("name", "cluster").put("scopes", new JsonArray().add("catalog:read"))).body());
      String secret = token.getString("token");
      assertEquals(200, bearer(b, secret), "token made on A works on B");

      a.close();
      assertEquals(accountId, browser.me(b).getString("id"), "still signed in after node A stopped");

      assertEquals(204, browser.write("DELETE", b.url("/api/v1/tokens/" + token.getString("id")), null).statusCode());
      assertEquals(401, bearer(b, secret));
      assertEquals(204, browser.write("POST", b.url("/auth/logout"), null).statusCode());
      assertEquals(401, browser.get(b.url("/api/v1/me")).statusCode());
    }
  }

  @Test
  void revocationOnOneNodeIsRefusedOnTheOtherAtOnce() {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    try (TestGateway a = TestGateway.start(cluster.get(0));
        TestGateway b = TestGateway.start(cluster.get(1))) {
      WebSession browser = new WebSession();
      browser.signIn(a, "github", "olga");
      JsonObject token = new JsonObject(browser.write("POST", a.url("/api/v1/tokens"), new JsonObject()
          .put("name", "both").put("scopes", new JsonArray().add("catalog:read"))).body());
      assertEquals(200, bearer(a, token.getString("token")));
      assertEquals(200, bearer(b, token.getString("token")));
      assertEquals(204, browser.write("DELETE", a.url("/api/v1/tokens/" + token.getString("id")), null).statusCode());
      assertEquals(401, bearer(a, token.getString("token")));
      assertEquals(401, bearer(b, token.getString("token")));

      assertEquals(204, browser.write("POST", a.url("/auth/logout"), null).statusCode());
      assertEquals(401, browser.get(b.url("/api/v1/me")).statusCode(), "logout on A ends the session on B");
    }
  }

  private static int bearer(TestGateway node, String secret) {
    return node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/me")))
        .header("Authorization", "Bearer " + secret)).statusCode();
  }
}
