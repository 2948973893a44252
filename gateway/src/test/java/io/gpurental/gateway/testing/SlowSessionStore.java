package io.gpurental.gateway.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.prng.VertxContextPRNG;
import io.vertx.ext.web.Session;
import io.vertx.ext.web.sstore.SessionStore;
import io.vertx.ext.web.sstore.impl.SharedDataSessionImpl;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A session store like the clustered one (reads return copies; a session not found yet is retried
 * for a while) whose writes land only after a delay, as Hazelcast's do under load. It counts the
 * writes still in flight: one in flight when the browser already has its answer can land after the
 * browser's next request and undo it.
 */
public final class SlowSessionStore implements SessionStore {
  private final Vertx vertx;
  private final long delayMillis;
  private final Map<String, Buffer> stored = new ConcurrentHashMap<>();
  private final AtomicInteger inFlight = new AtomicInteger();

  public SlowSessionStore(Vertx vertx, Duration delay) {
    this.vertx = vertx;
    this.delayMillis = delay.toMillis();
  }

  /** Writes (puts and deletes) issued but not landed yet. */
  public int writesInFlight() {
    return inFlight.get();
  }

  @Override
  public SessionStore init(Vertx vertx, JsonObject options) {
    return this;
  }

  @Override
  public long retryTimeout() {
    return 5_000;
  }

  @Override
  public Session createSession(long timeout) {
    return createSession(timeout, 32);
  }

  @Override
  public Session createSession(long timeout, int length) {
    return new SharedDataSessionImpl(VertxContextPRNG.current(vertx), timeout, length);
  }

  @Override
  public Future<Session> get(String id) {
    Buffer bytes = stored.get(id);
    if (bytes == null) {
      return Future.succeededFuture();
    }
    SharedDataSessionImpl copy = new SharedDataSessionImpl(VertxContextPRNG.current(vertx));
    copy.readFromBuffer(0, bytes);
    return Future.succeededFuture(copy);
  }

  @Override
  public Future<Void> delete(String id) {
    return later(() -> stored.remove(id));
  }

  @Override
  public Future<Void> put(Session session) {
    Buffer bytes = Buffer.buffer();
    ((SharedDataSessionImpl) session).writeToBuffer(bytes);
    return later(() -> stored.put(session.id(), bytes));
  }

  private Future<Void> later(Runnable write) {
    inFlight.incrementAndGet();
    return vertx.timer(delayMillis).map(t -> {
      write.run();
      inFlight.decrementAndGet();
      return null;
    });
  }

  @Override
  public Future<Void> clear() {
    stored.clear();
    return Future.succeededFuture();
  }

  @Override
  public Future<Integer> size() {
    return Future.succeededFuture(stored.size());
  }

  @Override
  public void close() {}
}
