package io.gpurental.gateway.pricing;

import io.gpurental.gateway.platform.Futures;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The terms of sale in force, as every new quote is priced with: read from PostgreSQL (seeded
 * from config the first time), cached on each node and dropped on every node when an operator
 * changes them ({@link #CHANGED} on the clustered event bus). The cache also expires after a
 * while, so a lost event costs at most that long.
 */
public final class CurrentTerms {
  /** Published (cluster-wide) after the terms changed. */
  public static final String CHANGED = "pricing.terms.changed";
  private static final Duration LIFETIME = Duration.ofMinutes(1);
  private final Vertx vertx;
  private final Pool pool;
  private final PriceTerms seed;
  private Future<PriceTerms> cached;
  private long cachedAtNanos;
  private long generation;

  public CurrentTerms(Vertx vertx, Pool pool, PriceTerms seed) {
    this.vertx = vertx;
    this.pool = pool;
    this.seed = seed;
    vertx.eventBus().consumer(CHANGED, message -> clear());
  }

  /** The terms in force now. */
  public Future<PriceTerms> get() {
    long loadedInGeneration;
    synchronized (this) {
      if (cached != null && !cached.failed() && System.nanoTime() - cachedAtNanos < LIFETIME.toNanos()) {
        return Futures.onCallerContext(vertx, cached);
      }
      loadedInGeneration = generation;
    }
    Future<PriceTerms> loaded = SettingsRepository.readOrSeed(pool, seed);
    synchronized (this) {
      if (generation == loadedInGeneration) {
        cached = loaded;
        cachedAtNanos = System.nanoTime();
      }
    }
    return Futures.onCallerContext(vertx, loaded);
  }

  /**
   * Replaces the terms (400 for two discounts at the same hours), audits before and after in the
   * same transaction, and drops every node's cache; answers the new terms.
   */
  public Future<PriceTerms> update(PriceTerms next, String actor) {
    Set<Integer> thresholds = new HashSet<>();
    for (var discount : next.durationDiscounts()) {
      if (!thresholds.add(discount.minHours())) {
        return Future.failedFuture(new Invalid("Two duration discounts start at " + discount.minHours() + " h.",
            List.of(new Invalid.FieldError("#/duration_discounts", "min_hours must differ"))));
      }
    }
    return SettingsRepository.readOrSeed(pool, seed)
        .compose(seeded -> pool.withTransaction(tx -> SettingsRepository.lock(tx)
            .compose(before -> SettingsRepository.update(tx, next, actor)
                .compose(after -> AuditLog.append(tx, actor, "settings.updated", "pricing_settings",
                    TermsJson.of(before), TermsJson.of(after)).map(after)))))
        .onSuccess(after -> {
          clear(); // this node at once, before the answer; the others through the event
          vertx.eventBus().publish(CHANGED, new JsonObject().put("updated_at", after.updatedAt().toString()));
        });
  }

  private synchronized void clear() {
    generation++;
    cached = null;
  }
}
