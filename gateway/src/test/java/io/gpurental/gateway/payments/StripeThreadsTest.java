package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.payments.StripeThreads.Work;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * stripe-java never runs on an event loop: its API calls (network and Gson), the webhook's
 * signature check and parse, and the parse of each event's data all note their thread in
 * {@link StripeThreads}. A checkout paid through the webhook, one the reconciler finds instead, and a
 * saved card exercise every kind; each must have run on workers, none on an event loop.
 */
@GatewayTest(settings = "GATEWAY_STRIPE_RECONCILE_INTERVAL_SECONDS=1")
class StripeThreadsTest {
  private static final Instant START = Instant.now().plus(9, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

  @Test
  void noStripeWorkRunsOnAnEventLoop(TestGateway node, @SignedIn("stripe-threads") ApiClient renter) {
    Map<Work, Long> workersBefore = counts(true);
    Map<Work, Long> loopsBefore = counts(false);

    JsonObject byWebhook = renter.reserve("off_osl_4090_01", 2, START, 2, "checkout");
    renter.payByCheckout(byWebhook, "4242424242424242");
    renter.awaitStatus(byWebhook.getString("id"), "confirmed");
    ApiClient.webhooks(node, "drop"); // only the reconciler reads this one's events
    JsonObject byReconciler = renter.reserve("off_fra_a100_01", 1, START, 1, "checkout");
    renter.payByCheckout(byReconciler, "4242424242424242");
    renter.awaitStatus(byReconciler.getString("id"), "confirmed");
    ApiClient.webhooks(node, "normal");
    renter.saveCard("4242424242424242");

    for (Work work : Work.values()) {
      assertTrue(StripeThreads.onWorkers(work) > workersBefore.get(work), work + " never ran on a worker");
      assertEquals(loopsBefore.get(work), StripeThreads.onEventLoops(work), work + " ran on an event loop");
    }
  }

  /** The check itself: the same note taken on an event loop is counted there. */
  @Test
  void workOnAnEventLoopIsCounted(TestGateway node) {
    long before = StripeThreads.onEventLoops(Work.WEBHOOK);
    Vertx vertx = node.gateway().vertx();
    TestGateway.await(Future.<Void>future(done -> vertx.getOrCreateContext().runOnContext(v -> {
      StripeThreads.note(Work.WEBHOOK, "a test on the event loop");
      done.complete();
    })));
    assertEquals(before + 1, StripeThreads.onEventLoops(Work.WEBHOOK));
  }

  private static Map<Work, Long> counts(boolean workers) {
    Map<Work, Long> counts = new EnumMap<>(Work.class);
    for (Work work : Work.values()) {
      counts.put(work, workers ? StripeThreads.onWorkers(work) : StripeThreads.onEventLoops(work));
    }
    return counts;
  }
}
