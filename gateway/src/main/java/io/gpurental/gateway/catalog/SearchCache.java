package io.gpurental.gateway.catalog;

import io.gpurental.gateway.fleet.HostChanges;
import io.gpurental.gateway.platform.Futures;
import io.gpurental.gateway.pricing.CurrentTerms;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A node-local cache of offer searches (the finished pages, and for the searches sorted in Java
 * the rows before pricing; each under a key of its own), dropped on every node when a
 * {@link CatalogChanges}, a fleet {@link HostChanges} or a {@link CurrentTerms#CHANGED} event
 * arrives, and in any case after a short lifetime, which also bounds how late a price scheduled
 * for a future time shows up. Concurrent misses for the same search share one database query.
 */
final class SearchCache {
  private static final int MAX_ENTRIES = 1_000;
  private final Vertx vertx;
  private final Duration lifetime;
  private final Map<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
      return size() > MAX_ENTRIES;
    }
  };
  private long generation;

  private record Entry(Future<?> rows, long expiresAtNanos) {}

  SearchCache(Vertx vertx, Duration lifetime) {
    this.vertx = vertx;
    this.lifetime = lifetime;
    vertx.eventBus().consumer(CatalogChanges.ADDRESS, message -> {
      clear();
      message.reply("cleared"); // ignored for published events; lets a sender wait for one node
    });
    // a host's status decides whether its offer is listed
    vertx.eventBus().consumer(HostChanges.ADDRESS, message -> clear());
    // a cached page holds all-in prices: new terms of sale (a fee, a tax) change them
    vertx.eventBus().consumer(CurrentTerms.CHANGED, message -> clear());
  }

  /** The value cached under {@code key}; a key always holds values of one type (the caller's). */
  @SuppressWarnings("unchecked")
  <V> Future<V> get(String key, Supplier<Future<V>> load) {
    long now = System.nanoTime();
    long loadedInGeneration;
    synchronized (this) {
      Entry entry = entries.get(key);
      if (entry != null && entry.expiresAtNanos() > now && !entry.rows().failed()) {
        return Futures.onCallerContext(vertx, (Future<V>) entry.rows());
      }
      loadedInGeneration = generation;
    }
    Future<V> rows = load.get();
    synchronized (this) {
      // expired searches are dropped, not kept until 1,000 others push them out: each holds the
      // rows of every offer it listed (at 10,000 hosts, 300 windows of a search held ~4 GiB)
      entries.values().removeIf(entry -> entry.expiresAtNanos() <= now);
      // a change announced while loading makes this result stale: serve it once, don't keep it
      if (generation == loadedInGeneration) {
        entries.put(key, new Entry(rows, now + lifetime.toNanos()));
      }
    }
    return Futures.onCallerContext(vertx, rows);
  }

  /** Searches held now (expired ones included until the next miss drops them). */
  synchronized int size() {
    return entries.size();
  }

  synchronized void clear() {
    generation++;
    entries.clear();
  }
}
