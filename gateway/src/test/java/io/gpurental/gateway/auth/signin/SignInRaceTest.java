package io.gpurental.gateway.auth.signin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.gpurental.gateway.auth.Csrf;
import io.gpurental.gateway.auth.Sessions;
import io.gpurental.gateway.config.RateLimitConfig;
import io.gpurental.gateway.platform.ratelimit.RateLimiter;
import io.gpurental.gateway.testing.AloneMember;
import io.gpurental.gateway.testing.SlowSessionStore;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A browser that follows the sign-in redirect at once must find the state in its session, even
 * when the cluster's session store is slow to take writes (as Hazelcast is under load).
 */
class SignInRaceTest {
  private static final long STORE_DELAY_MS = 500;
  private static Vertx vertx;
  private static HazelcastInstance hazelcast;
  private static HttpServer server;
  private static String base;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    hazelcast = Hazelcast.newHazelcastInstance(AloneMember.config("sign-in-race"));
    Sessions sessions = new Sessions(vertx, new SlowSessionStore(vertx, Duration.ofMillis(STORE_DELAY_MS)), false, Duration.ofHours(1), Duration.ofHours(12));
    Router router = Router.router(vertx);
    new SignInRoutes(Map.of("fake", new FakeProvider()), sessions, null, new Csrf(URI.create("http://127.0.0.1")),
        new RateLimiter(vertx, hazelcast), new RateLimitConfig(1000, 1000, 1000, 1000), URI.create("http://127.0.0.1"))
        .mount(router);
    server = TestGateway.await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
    base = "http://127.0.0.1:" + server.actualPort();
  }

  @AfterAll
  static void stop() {
    TestGateway.await(vertx.close());
    hazelcast.shutdown();
  }

  @Test
  void callbackFollowingTheRedirectAtOnceFindsTheState() throws Exception {
    HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    for (int attempt = 1; attempt <= 3; attempt++) {
      HttpResponse<String> started = browser.send(get(base + "/auth/fake"), HttpResponse.BodyHandlers.ofString());
      assertEquals(302, started.statusCode());
      String state = URI.create(started.headers().firstValue("Location").orElseThrow()).getQuery().substring(6);
      // the person refuses at the provider: the callback checks the state first, then reports the refusal
      HttpResponse<String> callback = browser.send(get(base + "/auth/fake/callback?error=access_denied&state=" + state),
          HttpResponse.BodyHandlers.ofString());
      assertEquals("/signin?error=access_denied&provider=fake", callback.headers().firstValue("Location").orElseThrow(),
          "sign-in " + attempt);
    }
  }

  private static HttpRequest get(String url) {
    return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
  }

  private static final class FakeProvider implements IdentityProvider {
    @Override
    public String name() {
      return "fake";
    }

    @Override
    public Future<String> authorizeUrl(AuthorizationRequest request) {
      return Future.succeededFuture("http://provider.invalid/authorize?state=" + request.state());
    }

    @Override
    public Future<ExternalIdentity> identify(String code, AuthorizationRequest request) {
      return Future.failedFuture("not reached");
    }
  }
}
