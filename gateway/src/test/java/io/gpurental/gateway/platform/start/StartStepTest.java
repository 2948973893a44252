package io.gpurental.gateway.platform.start;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.impl.NoStackTraceThrowable;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A start step retries what a slow machine explains and names itself when it gives up. */
class StartStepTest {
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    TestGateway.await(vertx.close());
  }

  @Test
  void aFailedStepNamesItselfAndItsCause() {
    Future<Void> step = StartStep.run(vertx, "seeding the demo fleet",
        () -> Future.failedFuture(new IllegalArgumentException("duplicate key value violates unique constraint")));
    StartFailure failure = failure(step);
    assertEquals("seeding the demo fleet", failure.step());
    assertTrue(failure.getMessage().startsWith(
        "starting: seeding the demo fleet: duplicate key value violates unique constraint (after "), failure.getMessage());
  }

  @Test
  void aBareTimeoutThatOutlastsTheBudgetSaysWhichStepAndHowLongItWasTried() {
    AtomicInteger tries = new AtomicInteger();
    // what vertx-sql-client's pool fails a transaction with when no connection came in time
    Future<Void> step = StartStep.run(vertx, "joining the cluster", Duration.ofMillis(1_500), () -> {
      tries.incrementAndGet();
      return Future.failedFuture(new NoStackTraceThrowable("Timeout"));
    });
    StartFailure failure = failure(step);
    assertTrue(failure.getMessage().matches(
        "starting: joining the cluster: Timeout \\(gave up after \\d+ tries in \\d+\\.\\d s\\)"), failure.getMessage());
    assertTrue(tries.get() >= 2, "retried: " + tries.get());
  }

  @Test
  void aTransientFailureIsTriedAgainUntilTheStepSucceeds() {
    AtomicInteger tries = new AtomicInteger();
    Future<String> step = StartStep.run(vertx, "recording the start in the audit log", () -> tries.incrementAndGet() < 3
        ? Future.failedFuture(new VertxException("Timeout waiting for connection", true))
        : Future.succeededFuture("recorded"));
    assertEquals("recorded", TestGateway.await(step));
    assertEquals(3, tries.get());
  }

  @Test
  void aDeadlockBetweenNodesSeedingAtOnceIsTriedAgain() {
    AtomicInteger tries = new AtomicInteger();
    // what three nodes started at once against one empty database met in GatewayCluster
    Future<String> step = StartStep.run(vertx, "seeding the demo fleet", () -> tries.incrementAndGet() < 2
        ? Future.failedFuture(new io.vertx.pgclient.PgException("deadlock detected", "ERROR", "40P01", null))
        : Future.succeededFuture("seeded"));
    assertEquals("seeded", TestGateway.await(step));
    assertEquals(2, tries.get());
  }

  @Test
  void aStepThatMustNotRepeatRunsOnceAndNamesItself() {
    AtomicInteger tries = new AtomicInteger();
    Future<Void> step = StartStep.once("starting the HTTP listeners", () -> {
      tries.incrementAndGet();
      return Future.failedFuture(new NoStackTraceThrowable("Timeout"));
    });
    assertTrue(failure(step).getMessage().startsWith("starting: starting the HTTP listeners: Timeout (after "));
    assertEquals(1, tries.get());
  }

  private static StartFailure failure(Future<?> step) {
    try {
      TestGateway.await(step);
    } catch (IllegalStateException e) {
      StartFailure failure = StartFailure.in(e);
      assertTrue(failure != null, "not a StartFailure: " + e);
      return failure;
    }
    throw new AssertionError("the step succeeded");
  }
}
