package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.sstore.ClusteredSessionStore;
import io.vertx.ext.web.sstore.SessionStore;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Only sign-in makes a session: anonymous and token calls to the API store none in the cluster
 * and set no cookie, so a flood of them costs no memory.
 */
@GatewayTest
class NoSessionWithoutReasonTest {
  private static final List<String> ANONYMOUS_GETS = List.of("/api/v1/version", "/api/v1/offers", "/api/v1/me");

  @Test
  void anonymousAndTokenCallsStoreNoSessionAndSetNoCookie(TestGateway node) {
    ApiClient renter = ApiClient.signIn(node, "nadia"); // its browser's session is made before we count
    WebSession browser = new WebSession();
    browser.signIn(node, "github", "olga");
    SessionStore store = ClusteredSessionStore.create(node.gateway().vertx());
    int before = Eventually.eventually("the sign-ins' sessions stored", () -> size(store), size -> size >= 2);

    for (int i = 0; i < 20; i++) {
      for (String path : ANONYMOUS_GETS) {
        assertNoSessionCookie(path, node.get(path));
      }
      assertNoSessionCookie("anonymous POST /api/v1/quotes", node.send(HttpRequest.newBuilder(
          URI.create(node.url("/api/v1/quotes"))).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{}"))));
      assertNoSessionCookie("token GET /api/v1/me", renter.get("/api/v1/me"));
      assertNoSessionCookie("token GET /api/v1/offers", renter.get("/api/v1/offers"));
      assertNoSessionCookie("token POST /api/v1/quotes", renter.post("/api/v1/quotes", new JsonObject()));
      // a cookie of a session the store does not hold (made up, or long expired)
      HttpResponse<String> madeUp = node.send(HttpRequest.newBuilder(URI.create(node.url("/api/v1/me")))
          .header("Cookie", Sessions.PLAIN_COOKIE + "=" + "x".repeat(40) + i));
      assertEquals(401, madeUp.statusCode());
      assertNoSessionCookie("made-up cookie", madeUp);
    }
    // a signed-in browser keeps its one session: same cookie, still signed in, nothing new stored
    String cookie = browser.cookie(Sessions.PLAIN_COOKIE).orElseThrow().getValue();
    assertEquals("olga", browser.me(node).getJsonArray("identities").getJsonObject(0).getString("login"));
    assertEquals(cookie, browser.cookie(Sessions.PLAIN_COOKIE).orElseThrow().getValue());

    // the control: starting a sign-in stores a session; once it shows, nothing else was stored
    HttpResponse<String> start = new WebSession().get(node.url("/auth/github"));
    assertTrue(start.headers().allValues("Set-Cookie").stream()
        .anyMatch(c -> c.startsWith(Sessions.PLAIN_COOKIE + "=")), "sign-in sets the session cookie");
    Eventually.eventually("the sign-in's session stored", () -> size(store), size -> size > before);
    assertEquals(before + 1, size(store), "only the sign-in stored a session");
  }

  private static int size(SessionStore store) {
    return TestGateway.await(store.size());
  }

  /** No cookie that sets a session (clearing a dead one, Max-Age=0, is fine). */
  private static void assertNoSessionCookie(String what, HttpResponse<String> response) {
    assertTrue(response.statusCode() < 500, what + " answered " + response.statusCode());
    List<String> setting = response.headers().allValues("Set-Cookie").stream()
        .filter(c -> !c.contains("Max-Age=0")).toList();
    assertEquals(List.of(), setting, what + " set a cookie");
  }
}
