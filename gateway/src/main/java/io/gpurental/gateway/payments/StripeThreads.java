package io.gpurental.gateway.payments;

import com.stripe.exception.ApiConnectionException;
import com.stripe.net.HttpURLConnectionClient;
import com.stripe.net.StripeRequest;
import com.stripe.net.StripeResponse;
import com.stripe.net.StripeResponseStream;
import io.vertx.core.Context;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where stripe-java runs. Its calls block on the network and its Gson parsing of answers, webhooks
 * and event payloads takes milliseconds under load, so none of it may run on an event loop. Every
 * Stripe API call (through {@link #httpClient()}) and every parse of an event notes its thread
 * here: one on an event loop is logged as an error and counted, so a test can prove there are none.
 */
final class StripeThreads {
  /** What stripe-java does: an API call (network, then Gson), a webhook's check and parse, an event's data parse. */
  enum Work { API_CALL, WEBHOOK, EVENT_DATA }

  private static final Logger LOG = LoggerFactory.getLogger(StripeThreads.class);
  private static final Map<Work, AtomicLong> ON_WORKERS = counters();
  private static final Map<Work, AtomicLong> ON_EVENT_LOOPS = counters();

  private StripeThreads() {}

  /** Notes that stripe-java does {@code work} ({@code detail} for the log) on the current thread. */
  static void note(Work work, String detail) {
    if (Context.isOnEventLoopThread()) {
      ON_EVENT_LOOPS.get(work).incrementAndGet();
      LOG.error("stripe-java ran on the event loop {} ({}): it blocks every request of that loop",
          Thread.currentThread().getName(), detail);
    } else {
      ON_WORKERS.get(work).incrementAndGet();
    }
  }

  /** stripe-java's own HTTP client, noting the thread of each call (its answer is parsed there too). */
  static HttpURLConnectionClient httpClient() {
    return new HttpURLConnectionClient() {
      @Override
      public StripeResponse request(StripeRequest request) throws ApiConnectionException {
        note(Work.API_CALL, request.method() + " " + request.url().getPath());
        return super.request(request);
      }

      @Override
      public StripeResponseStream requestStream(StripeRequest request) throws ApiConnectionException {
        note(Work.API_CALL, request.method() + " " + request.url().getPath());
        return super.requestStream(request);
      }
    };
  }

  /** How often stripe-java did {@code work} on a worker thread in this JVM. */
  static long onWorkers(Work work) {
    return ON_WORKERS.get(work).get();
  }

  /** How often it did {@code work} on an event loop in this JVM (0, or a defect). */
  static long onEventLoops(Work work) {
    return ON_EVENT_LOOPS.get(work).get();
  }

  private static Map<Work, AtomicLong> counters() {
    Map<Work, AtomicLong> counters = new EnumMap<>(Work.class);
    for (Work work : Work.values()) {
      counters.put(work, new AtomicLong());
    }
    return counters;
  }
}
