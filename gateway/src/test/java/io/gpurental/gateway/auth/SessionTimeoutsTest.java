package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.ext.web.Session;
import io.vertx.ext.web.sstore.ClusteredSessionStore;
import io.vertx.ext.web.sstore.SessionStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Idle and absolute session timeouts come from config. */
@GatewayTest(settings = {
    "GATEWAY_AUTH_SESSION_IDLE_TIMEOUT_MINUTES=7",
    "GATEWAY_AUTH_SESSION_ABSOLUTE_TIMEOUT_HOURS=2"})
class SessionTimeoutsTest {
  @Test
  void idleTimeoutIsTheStoresExpiryAndAbsoluteTimeoutEndsTheSignIn(TestGateway node) {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", "quentin");
    assertEquals(200, browser.get(node.url("/api/v1/me")).statusCode());

    SessionStore store = ClusteredSessionStore.create(node.gateway().vertx());
    String id = browser.cookie(Sessions.PLAIN_COOKIE).orElseThrow().getValue();
    Session session = TestGateway.await(store.get(id));
    assertEquals(Duration.ofMinutes(7).toMillis(), session.timeout(), "idle timeout");

    // pretend the sign-in happened just over two hours ago
    session.put(Sessions.SIGNED_IN_AT, System.currentTimeMillis() - Duration.ofHours(2).plusSeconds(1).toMillis());
    TestGateway.await(store.put(session));
    assertEquals(401, browser.get(node.url("/api/v1/me")).statusCode(), "absolute timeout");
  }
}
