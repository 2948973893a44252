package io.gpurental.gateway.platform.ratelimit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Vertx;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A counter whose Hazelcast member is paused never answers (until the member is dropped, 60 s
 * later): the request goes through uncounted after {@link RateLimiter#COUNT_WAIT} (2 s) instead of waiting.
 */
class RateLimiterUnreachableTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    TestGateway.await(vertx.close());
  }

  @Test
  void aCountThatNeverComesLetsTheRequestThroughAfterTwoSeconds() {
    RateLimiter limiter = new RateLimiter(vertx, hazelcastWhoseMapNeverAnswers());
    long started = System.nanoTime();
    TestGateway.await(limiter.acquire("writes", "token:t", 1, Duration.ofMinutes(1), "write requests"));
    long millis = (System.nanoTime() - started) / 1_000_000;
    assertTrue(millis >= RateLimiter.COUNT_WAIT.toMillis() && millis < 5_000, "let through after " + millis + " ms");
  }

  @SuppressWarnings("unchecked")
  private static HazelcastInstance hazelcastWhoseMapNeverAnswers() {
    IMap<String, Integer> map = (IMap<String, Integer>) Proxy.newProxyInstance(IMap.class.getClassLoader(),
        new Class<?>[] {IMap.class}, (proxy, method, args) -> {
          if (method.getName().equals("submitToKey")) {
            return new CompletableFuture<Integer>(); // the partition's owner is paused
          }
          throw new UnsupportedOperationException(method.getName());
        });
    return (HazelcastInstance) Proxy.newProxyInstance(HazelcastInstance.class.getClassLoader(),
        new Class<?>[] {HazelcastInstance.class}, (proxy, method, args) -> {
          if (method.getName().equals("getMap")) {
            return map;
          }
          throw new UnsupportedOperationException(method.getName());
        });
  }
}
