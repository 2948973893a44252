package io.gpurental.gateway.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.auth.Sessions;
import io.gpurental.gateway.auth.signin.Pkce;
import io.gpurental.gateway.platform.http.ProblemHandler;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SlowSessionStore;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The authorization endpoint over a session store whose writes land late (Hazelcast under load):
 * no answer may reach the browser while the session write it caused is still in flight, since
 * that write can land after the browser's next request stored its own and undo it. This is how
 * a second authorization in one browser once found its request gone at the consent page.
 */
@GatewayTest
class ConsentSessionRaceTest {
  private static final String SCOPES = "catalog:read reservations:read reservations:write";
  private static TestGateway node;
  private static SlowSessionStore store;
  private static HttpServer server;
  private static String base;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    Vertx vertx = node.gateway().vertx();
    store = new SlowSessionStore(vertx, Duration.ofMillis(300));
    Sessions sessions = new Sessions(vertx, store, false, Duration.ofHours(1), Duration.ofHours(12));
    WebSession person = new WebSession();
    person.signIn(node, "github", "race-ines");
    String account = person.me(node).getString("id");
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create(false));
    // the test's stand-in for a sign-in: this session belongs to that account
    router.get("/test/sign-in").handler(sessions.handler()).handler(ctx -> {
      sessions.signIn(ctx, account, "csrf-" + account);
      sessions.store(ctx).onSuccess(v -> ctx.response().setStatusCode(204).end()).onFailure(ctx::fail);
    });
    server = TestGateway.await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    base = "http://127.0.0.1:" + server.actualPort();
    OAuthRepository repository = new OAuthRepository(node.gateway().pool());
    new AuthorizationEndpoint(new OAuthClients(vertx, repository, false), repository, sessions, base, base,
        List.of(base + "/mcp"), List.of(SCOPES.split(" ")), "eur", id -> Future.succeededFuture(Optional.empty()))
        .mount(router);
    router.route().failureHandler(new ProblemHandler(1 << 20));
  }

  @AfterAll
  static void stop() {
    TestGateway.await(server.close());
  }

  @Test
  void everyAnswerWaitsForItsSessionWriteSoTwoAuthorizationsInOneBrowserBothReachConsent() {
    String clientId = OAuthDance.register(node, "Quick Agent");
    WebSession browser = new WebSession();
    assertEquals(204, browser.get(base + "/test/sign-in").statusCode());
    for (int authorization = 1; authorization <= 2; authorization++) {
      String what = "authorization " + authorization + ": ";
      String verifier = Pkce.newVerifier();
      HttpResponse<String> authorized = browser.get(base + "/oauth/authorize?" + OAuthDance.form(
          OAuthDance.request(clientId, Pkce.challenge(verifier))));
      assertEquals(302, authorized.statusCode(), what + authorized.body());
      assertEquals(0, store.writesInFlight(), what + "the redirect to consent went out before the session was stored");
      String consentPath = browser.location(authorized);
      assertTrue(consentPath.startsWith("/oauth/consent?request="), consentPath);

      HttpResponse<String> page = browser.get(base + consentPath);
      assertEquals(200, page.statusCode(), what + page.body());
      assertEquals(0, store.writesInFlight(), what + "the consent page went out before the session was stored");

      String form = Map.of("request", OAuthDance.hidden(page.body(), "request"), "csrf_token",
              OAuthDance.hidden(page.body(), "csrf_token"), "decision", "allow").entrySet().stream()
          .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
          .collect(Collectors.joining("&", "", "&scope=catalog%3Aread"));
      HttpResponse<String> decided = browser.send(HttpRequest.newBuilder(URI.create(base + "/oauth/consent"))
          .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", base)
          .POST(HttpRequest.BodyPublishers.ofString(form)));
      assertEquals(302, decided.statusCode(), what + decided.body());
      assertEquals(0, store.writesInFlight(), what + "the code went out before the session was stored");
      assertTrue(WebSession.query(browser.location(decided)).containsKey("code"), browser.location(decided));
    }
  }
}
