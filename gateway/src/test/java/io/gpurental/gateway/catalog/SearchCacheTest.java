package io.gpurental.gateway.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The node-local search cache keeps live searches only: an expired one is dropped at the next miss. */
class SearchCacheTest {
  @Test
  void dropsExpiredSearchesInsteadOfKeepingThem() {
    Vertx vertx = Vertx.vertx();
    try {
      AtomicInteger loads = new AtomicInteger();
      // a lifetime of zero: every search has expired by the time the next one is asked for
      SearchCache expiring = new SearchCache(vertx, Duration.ZERO);
      for (int i = 0; i < 50; i++) {
        expiring.get("window-" + i, () -> {
          loads.incrementAndGet();
          return Future.succeededFuture(List.of());
        }).await();
      }
      assertEquals(50, loads.get(), "each expired search is loaded again");
      assertEquals(1, expiring.size(), "only the latest search is held, not 50");

      SearchCache live = new SearchCache(vertx, Duration.ofMinutes(5));
      for (int i = 0; i < 50; i++) {
        live.get("window-" + i, () -> Future.succeededFuture(List.of())).await();
      }
      live.get("window-0", () -> {
        throw new AssertionError("a live search is served from the cache");
      }).await();
      assertEquals(50, live.size(), "live searches stay");
    } finally {
      vertx.close().await();
    }
  }
}
