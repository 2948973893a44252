package io.gpurental.gateway.platform;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.Function;

/** Helpers for futures: shared between event loops, or run one after another. */
public final class Futures {
  private Futures() {}

  /**
   * The outcome of a future that may belong to another event loop (e.g. a cached, shared one),
   * delivered on the caller's own context: Vert.x runs callbacks of a completed future on the
   * future's context, which would move the rest of a request's handling to a foreign loop.
   */
  public static <T> Future<T> onCallerContext(Vertx vertx, Future<T> shared) {
    Context caller = vertx.getOrCreateContext();
    Promise<T> promise = Promise.promise();
    shared.onComplete(result -> caller.runOnContext(v -> promise.handle(result)));
    return promise.future();
  }

  /**
   * Runs {@code step} for each item, one after the other (the next starts when the previous one
   * succeeded); fails with the first failure. A step that must not hold back the rest recovers
   * its own failure.
   */
  public static <T> Future<Void> inSequence(Iterable<T> items, Function<T, Future<?>> step) {
    Future<Void> chain = Future.succeededFuture();
    for (T item : items) {
      chain = chain.compose(v -> step.apply(item).<Void>mapEmpty());
    }
    return chain;
  }
}
