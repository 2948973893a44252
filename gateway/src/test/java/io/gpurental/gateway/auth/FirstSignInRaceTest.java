package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A new person signing in with GitHub and Google at once, both vouching for one verified email,
 * gets one account: the other provider's sign-ins are told the email is in use, as they are
 * one after the other. Each round is a new person.
 */
@GatewayTest(settings = "GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE=10000")
class FirstSignInRaceTest {
  private static final int ROUNDS = 20;
  private static final int PER_PROVIDER = 3;
  private static TestGateway node;
  private static ExecutorService threads;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    threads = Executors.newFixedThreadPool(2 * PER_PROVIDER);
  }

  @AfterAll
  static void stop() {
    threads.shutdownNow();
  }

  @Test
  void firstSignInsWithOneVerifiedEmailFromTwoProvidersMakeOneAccount() {
    for (int round = 0; round < ROUNDS; round++) {
      String login = "first-sign-in-" + round;
      String email = login + "@example.com";
      List<WebSession> browsers = new ArrayList<>();
      List<String> callbacks = new ArrayList<>();
      for (int i = 0; i < 2 * PER_PROVIDER; i++) {
        WebSession browser = new WebSession();
        boolean github = i % 2 == 0;
        browsers.add(browser);
        callbacks.add(browser.approve(browser.startSignIn(node, github ? "github" : "google", null),
            github ? login : email, null));
      }
      List<String> landings = finishAtOnce(browsers, callbacks);

      String seen = "round " + round + ": " + landings;
      assertEquals(1, count("SELECT count(*) FROM accounts WHERE lower(primary_email) = '" + email + "'"), seen);
      assertEquals(1, count("SELECT count(DISTINCT account_id) FROM identities WHERE email_verified"
          + " AND lower(email) = '" + email + "'"), seen);
      long refused = landings.stream().filter(l -> l.startsWith("/signin?error=email_in_use")).count();
      assertEquals(PER_PROVIDER, refused, "one provider's sign-ins are refused, the other's sign in; " + seen);
      assertTrue(landings.stream().filter(l -> !l.startsWith("/signin?error=email_in_use"))
          .noneMatch(l -> l.contains("error=")), seen);
    }
  }

  /** Follows each browser's callback, all released together; the landings in the same order. */
  private static List<String> finishAtOnce(List<WebSession> browsers, List<String> callbacks) {
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (int i = 0; i < browsers.size(); i++) {
      WebSession browser = browsers.get(i);
      String callback = callbacks.get(i);
      calls.add(CompletableFuture.supplyAsync(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        return browser.finish(callback);
      }, threads));
    }
    go.countDown();
    return calls.stream().map(CompletableFuture::join).toList();
  }

  private static long count(String query) {
    return node.sql(query).iterator().next().getLong(0);
  }
}
