package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.EventStream;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/events} follows the credential it was opened with: revoking the token,
 * signing out or losing a role ends the stream within seconds; and streams are capped per account.
 * The periodic re-check is left at its default (30 s) here, so a quick close comes from the event.
 */
class LiveStreamCredentialsTest {
  /** "Within a few seconds", generous for a loaded machine; the measured time is printed. */
  private static final Duration QUICKLY = Duration.ofSeconds(5);
  private static TestGateway node;

  @BeforeAll
  static void start() {
    node = TestGateway.start();
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @Test
  void revokingTheTokenEndsItsStream() throws Exception {
    WebSession browser = signedIn("ivan");
    JsonObject token = token(browser);
    try (EventStream stream = EventStream.bearer(node, token.getString("token"))) {
      long revokedAt = System.nanoTime();
      assertEquals(204, browser.write("DELETE", node.url("/api/v1/tokens/" + token.getString("id")), null)
          .statusCode());
      Duration took = stream.awaitEnd(revokedAt);
      System.out.println("Stream of a revoked token closed after " + took.toMillis() + " ms");
      assertTrue(took.compareTo(QUICKLY) < 0, took.toString());
      assertTrue(stream.lines().contains("event: closed"), stream.lines().toString());
    }
  }

  @Test
  void signingOutEndsTheSessionsStream() throws Exception {
    WebSession browser = signedIn("judy");
    try (EventStream stream = EventStream.session(node, browser)) {
      long signedOutAt = System.nanoTime();
      assertEquals(204, browser.write("POST", node.url("/auth/logout"), null).statusCode());
      Duration took = stream.awaitEnd(signedOutAt);
      System.out.println("Stream of a signed-out session closed after " + took.toMillis() + " ms");
      assertTrue(took.compareTo(QUICKLY) < 0, took.toString());
    }
  }

  @Test
  void losingTheOperatorRoleEndsTheOperatorsStream() throws Exception {
    WebSession operator = signedIn("operator");
    WebSession kate = signedIn("kate");
    String kateId = kate.me(node).getString("id");
    String role = node.url("/api/v1/accounts/" + kateId + "/roles/operator");
    assertEquals(204, operator.write("PUT", role, null).statusCode());
    try (EventStream stream = EventStream.session(node, kate)) {
      long revokedAt = System.nanoTime();
      assertEquals(204, operator.write("DELETE", role, null).statusCode());
      Duration took = stream.awaitEnd(revokedAt);
      System.out.println("Stream of an account that lost the operator role closed after " + took.toMillis() + " ms");
      assertTrue(took.compareTo(QUICKLY) < 0, took.toString());
    }
    try (EventStream again = EventStream.session(node, kate)) {
      assertTrue(again.isOpen(), "she may reconnect, as the renter she still is");
    }
  }

  @Test
  void anAccountHasAtMostTenStreamsAndClosingOneFreesASlot() throws Exception {
    String secret = token(signedIn("leo")).getString("token");
    List<EventStream> open = new ArrayList<>();
    try {
      for (int i = 0; i < 10; i++) {
        open.add(EventStream.bearer(node, secret));
      }
      HttpResponse<Stream<String>> refused = EventStream.request(node, secret);
      try (Stream<String> body = refused.body()) {
        assertEquals(429, refused.statusCode(), "the 11th stream is refused");
        assertTrue(refused.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        assertTrue(refused.headers().firstValue("Retry-After").isPresent(), refused.headers().toString());
        String problem = body.collect(java.util.stream.Collectors.joining("\n"));
        assertTrue(new JsonObject(problem).getString("detail").contains("10 event streams"), problem);
      }

      open.remove(0).close();
      open.add(EventStream.bearerOnceFree(node, secret));
    } finally {
      for (EventStream stream : open) {
        stream.close();
      }
    }
  }

  @Test
  void withoutAnyAnnouncementThePeriodicRecheckEndsTheStream() throws Exception {
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_EVENTS_CREDENTIAL_RECHECK_SECONDS", "1");
    try (TestGateway other = TestGateway.start(settings)) {
      WebSession browser = new WebSession();
      browser.signIn(other, "github", "mallory");
      JsonObject token = token(other, browser);
      try (EventStream stream = EventStream.bearer(other, token.getString("token"))) {
        long revokedAt = System.nanoTime();
        // revoked behind the API's back: no event is published, only the re-check can notice
        other.sql("UPDATE api_tokens SET revoked_at = now() WHERE id = '" + token.getString("id") + "'");
        Duration took = stream.awaitEnd(revokedAt);
        assertTrue(took.compareTo(QUICKLY) < 0, took.toString());
      }
    }
  }

  private static WebSession signedIn(String login) {
    WebSession browser = new WebSession();
    browser.signIn(node, "github", login);
    return browser;
  }

  private static JsonObject token(WebSession browser) {
    return token(node, browser);
  }

  private static JsonObject token(TestGateway on, WebSession browser) {
    HttpResponse<String> created = browser.write("POST", on.url("/api/v1/tokens"), new JsonObject()
        .put("name", "stream").put("scopes", new JsonArray().add("reservations:write")));
    assertEquals(201, created.statusCode(), created.body());
    return new JsonObject(created.body());
  }
}
