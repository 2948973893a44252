package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.TestGateway;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node started while every core is busy becomes ready: a start step that is merely slow (the
 * first PostgreSQL connection taking longer than the pool wait) is tried again instead of ending
 * the start with a bare "Timeout".
 */
class StartUnderLoadTest {
  /** The burners stop by themselves after this, should the test never reach its finally. */
  private static final Duration BURN_AT_MOST = Duration.ofMinutes(5);

  @Test
  void aNodeStartedOnASaturatedMachineBecomesReady() {
    Map<String, String> settings = TestGateway.settings();
    // the shortest pool wait the config allows: on a saturated machine the first connection takes
    // longer, which ended the start ("The gateway could not start: Timeout") before start steps retried
    settings.put("GATEWAY_DB_POOL_WAIT_TIMEOUT_MS", "100");
    Burners burners = Burners.onEveryCore(BURN_AT_MOST);
    TestGateway node = null;
    try {
      long started = System.nanoTime();
      node = TestGateway.start(settings);
      System.out.printf("Started under %d CPU burners in %d ms%n", burners.count(),
          (System.nanoTime() - started) / 1_000_000);
      TestGateway ready = node;
      Eventually.eventually("ready under load", Duration.ofSeconds(60), () -> ready.get("/health/ready").statusCode(),
          status -> status == 200);
    } finally {
      burners.stop();
    }
    try {
      TestGateway ready = node;
      Eventually.eventually("the demo fleet's offers listed", Duration.ofSeconds(30),
          () -> ready.get("/api/v1/offers").statusCode(), status -> status == 200);
      assertEquals(1L, node.sql("SELECT count(*) FROM audit_log WHERE action = 'node.started'")
          .iterator().next().getLong(0), "the start recorded once");
    } finally {
      node.close();
    }
  }

  /** One busy-looping daemon thread per core, until stopped or until a deadline. */
  private static final class Burners {
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;

    static Burners onEveryCore(Duration atMost) {
      Burners burners = new Burners();
      long deadline = System.nanoTime() + atMost.toNanos();
      for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
        Thread thread = new Thread(() -> burners.burn(deadline), "cpu-burner-" + i);
        thread.setDaemon(true);
        burners.threads.add(thread);
        thread.start();
      }
      return burners;
    }

    int count() {
      return threads.size();
    }

    private void burn(long deadline) {
      long x = 1;
      while (!stopped && System.nanoTime() < deadline) {
        for (int i = 0; i < 100_000; i++) {
          x = x * 6364136223846793005L + 1442695040888963407L;
        }
      }
      if (x == 42) {
        System.out.println("unlikely"); // keeps the loop from being optimised away
      }
    }

    void stop() {
      stopped = true;
      for (Thread thread : threads) {
        try {
          thread.join(10_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
