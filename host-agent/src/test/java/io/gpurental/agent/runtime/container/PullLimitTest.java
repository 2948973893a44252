package io.gpurental.agent.runtime.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.runtime.InstanceFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pull whose progress names its size (Docker always sends layer totals; Podman 4.3 only on slow
 * links, which the real-engine test in {@link ImagePullTest} cannot make) is stopped as soon as it is
 * past the renter's limit: the agent hangs up, and the engine cancels a pull whose client is gone.
 */
class PullLimitTest {
  @TempDir
  Path dir;

  @Test
  void aPullWhoseTotalIsPastTheLimitIsStoppedAtOnce() throws IOException {
    AtomicBoolean hungUp = new AtomicBoolean();
    AtomicInteger linesWritten = new AtomicInteger();
    int lines = 10_000; // 200 MB in 20 kB steps: what the engine would send if the agent kept reading
    try (FakeEngine engine = new FakeEngine(Files.createDirectories(dir.resolve("engine")), r -> {
      if (r.path().contains("/images/create")) {
        return new FakeEngine.Answer(200, "", (out, in) -> {
          try {
            out.write(FakeEngine.lines("{\"status\":\"Pulling fs layer\",\"id\":\"l1\",\"progressDetail\":{}}"));
            for (int i = 1; i <= lines; i++) {
              out.write(("{\"status\":\"Downloading\",\"id\":\"l1\",\"progressDetail\":{\"current\":" + i * 20_000L
                  + ",\"total\":200000000}}\n").getBytes(StandardCharsets.UTF_8));
              out.flush();
              linesWritten.incrementAndGet();
            }
            out.write(FakeEngine.lines("{\"status\":\"Download complete\",\"id\":\"l1\"}"));
          } catch (IOException e) {
            hungUp.set(true);
            throw e;
          }
        });
      }
      return r.path().contains("/images/") ? FakeEngine.Answer.json(404, "{\"message\":\"no such image\"}")
          : FakeEngine.docker(r, "[\"name=userns\"]");
    })) {
      Images images = new Images(new Engine(engine.socket), 10_000_000);
      List<Long> reported = new CopyOnWriteArrayList<>();
      InstanceFailure failure = org.junit.jupiter.api.Assertions.assertThrows(InstanceFailure.class,
          () -> images.ensureForStart("registry.example/big:1", (done, total) -> reported.add(done)));
      assertEquals(InstanceFailure.IMAGE_TOO_LARGE, failure.reason(), failure.getMessage());
      assertTrue(failure.getMessage().contains("200000000") && failure.getMessage().contains("10000000"),
          failure.getMessage());
      assertTrue(reported.stream().allMatch(done -> done <= 10_000_000), "no progress past the limit: " + reported);
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
        while (!hungUp.get() && linesWritten.get() < lines) {
          Thread.onSpinWait();
        }
      });
      System.out.printf("a 200 MB pull past a 10 MB limit: stopped after %d of %d progress lines%n",
          linesWritten.get(), lines);
      assertTrue(hungUp.get(), "the agent hung up before the engine sent the rest (" + linesWritten.get() + " lines)");
    }
  }
}
