package io.gpurental.gateway.platform.start;

import io.gpurental.gateway.platform.db.DatabaseOutages;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One named step of a node's start. On a busy machine a step can fail only because it was slow (a
 * first PostgreSQL connection that took longer than the pool wait, a statement or cluster lock
 * that timed out): such transient failures are retried, with a growing pause, until the step's
 * budget is spent. Any failure that ends the start names the step, the cause, and how long it was
 * tried, instead of a bare "Timeout".
 */
public final class StartStep {
  private static final Logger LOG = LoggerFactory.getLogger(StartStep.class);
  /** What a step may take, retries included, before the start gives up (well under a test's 3 min). */
  public static final Duration BUDGET = Duration.ofSeconds(60);
  private static final long FIRST_PAUSE_MS = 250;
  private static final long LONGEST_PAUSE_MS = 4_000;

  private StartStep() {}

  /** Runs {@code step} within {@link #BUDGET}. */
  public static <T> Future<T> run(Vertx vertx, String name, Supplier<Future<T>> step) {
    return run(vertx, name, BUDGET, step);
  }

  /** Runs {@code step}, again after each transient failure while {@code budget} lasts. */
  public static <T> Future<T> run(Vertx vertx, String name, Duration budget, Supplier<Future<T>> step) {
    Promise<T> done = Promise.promise();
    attempt(vertx, name, step, System.nanoTime(), budget.toNanos(), 1, FIRST_PAUSE_MS, done);
    return done.future();
  }

  /** Runs {@code step} once (it must not be repeated, e.g. a deployment), naming it if it fails. */
  public static <T> Future<T> once(String name, Supplier<Future<T>> step) {
    long started = System.nanoTime();
    Future<T> tried;
    try {
      tried = step.get();
    } catch (RuntimeException e) {
      tried = Future.failedFuture(e);
    }
    return tried.recover(failure -> Future.failedFuture(failed(name, failure, started)));
  }

  /** Names the step in a failure of a step that is not retried (e.g. a blocking one off Vert.x). */
  public static StartFailure failed(String name, Throwable failure, long startedNanos) {
    if (failure instanceof StartFailure already) {
      return already;
    }
    return new StartFailure(name, describe(failure) + " (after " + seconds(System.nanoTime() - startedNanos) + ")",
        failure);
  }

  private static <T> void attempt(Vertx vertx, String name, Supplier<Future<T>> step, long started, long budgetNanos,
      int tries, long pauseMs, Promise<T> done) {
    Future<T> tried;
    try {
      tried = step.get();
    } catch (RuntimeException e) {
      tried = Future.failedFuture(e);
    }
    tried.onSuccess(done::complete).onFailure(failure -> {
      long elapsed = System.nanoTime() - started;
      boolean timeLeft = elapsed + pauseMs * 1_000_000 < budgetNanos;
      if (isTransient(failure) && timeLeft) {
        LOG.warn("Start step '{}' failed ({}), try {}; trying again in {} ms", name, describe(failure), tries, pauseMs);
        vertx.setTimer(pauseMs, id -> attempt(vertx, name, step, started, budgetNanos, tries + 1,
            Math.min(pauseMs * 2, LONGEST_PAUSE_MS), done));
      } else if (failure instanceof StartFailure) {
        done.fail(failure);
      } else {
        done.fail(new StartFailure(name, describe(failure) + (isTransient(failure)
            ? " (gave up after " + tries + " tries in " + seconds(elapsed) + ")"
            : " (after " + seconds(elapsed) + ")"), failure));
      }
    });
  }

  /**
   * A failure that a slow or briefly unavailable dependency explains and a retry may cure:
   * PostgreSQL unavailable or slow (the pool's wait, a statement timeout, a dropped connection),
   * any timeout (a cluster lock, a Hazelcast operation, an event-bus request), or a transaction
   * PostgreSQL aborted for another's sake (a deadlock, a serialization failure), which it asks to
   * retry: nodes started at once seed the same rows at once (steps run here repeat safely).
   */
  static boolean isTransient(Throwable failure) {
    if (DatabaseOutages.isOutage(failure)) {
      return true;
    }
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof io.vertx.pgclient.PgException pg
          && ("40P01".equals(pg.getSqlState()) || "40001".equals(pg.getSqlState()))) {
        return true;
      }
      String type = cause.getClass().getName();
      String message = String.valueOf(cause.getMessage());
      if (cause instanceof TimeoutException || type.endsWith("OperationTimeoutException")
          || message.startsWith("Timed out waiting to get lock") || message.startsWith("Timeout")) {
        return true;
      }
      if (cause instanceof io.vertx.core.eventbus.ReplyException reply
          && reply.failureType() == io.vertx.core.eventbus.ReplyFailure.TIMEOUT) {
        return true;
      }
    }
    return false;
  }

  private static String describe(Throwable failure) {
    String message = failure.getMessage();
    return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
  }

  private static String seconds(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9);
  }
}
