package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.InstanceFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's image cache: pulls with progress, pre-pulls the templates, reports what is cached
 * (reference, digest, size, last use) and evicts the least recently used past the operator's limit.
 * Last use is known from this agent's starts (else the image's creation). Blocking: workers only.
 */
public final class Images {
  private static final Logger LOG = LoggerFactory.getLogger(Images.class);
  private static final Duration PULL_TIMEOUT = Duration.ofMinutes(30);

  private final Engine engine;
  private final Map<String, Instant> lastUsed = new ConcurrentHashMap<>();
  /** Templates whose pre-pull did not fit under the watermark, with their size. */
  private final Map<String, Long> tooBig = new ConcurrentHashMap<>();
  /** The operator's templates (the last pre-pull list): their pulls are not a renter's, so not bounded. */
  private volatile Set<String> templates = Set.of();
  private final long maxRenterPullBytes;

  Images(Engine engine, long maxRenterPullBytes) {
    this.engine = engine;
    this.maxRenterPullBytes = maxRenterPullBytes;
  }

  /** One cached image, as heartbeats report it. */
  public record Cached(String ref, String digest, long sizeBytes, Instant lastUsedAt) {
  }

  /** Bytes done and total (null while unknown) of a pull. */
  interface Progress {
    void pulled(long done, Long total);
  }

  /** The image of a renter's start: pulled when missing, bounded in bytes unless it is a template. */
  void ensureForStart(String ref, Progress progress) {
    ensure(ref, templates.contains(ref) ? null : maxRenterPullBytes, progress);
  }

  /**
   * Pulls {@code ref} when it is not here. With {@code maxBytes}, the pull stops as soon as the
   * engine's progress shows it past that (the layers' known total, or the bytes done so far), and an
   * image found past it once pulled (an engine that sent no byte counts, as Podman 4.3 on a fast
   * link) is removed again: both are {@code image_too_large}.
   */
  void ensure(String ref, Long maxBytes, Progress progress) {
    try {
      if (engine.image(ref) != null) {
        return;
      }
      progress.pulled(0, null);
      Map<String, long[]> layers = new HashMap<>();
      engine.pull(ref, PULL_TIMEOUT, event -> {
        if (layerProgress(event, layers)) {
          long done = layers.values().stream().mapToLong(l -> l[0]).sum();
          long total = layers.values().stream().mapToLong(l -> l[1]).sum();
          Long known = total > 0 && layers.values().stream().allMatch(l -> l[1] > 0) ? total : null;
          if (maxBytes != null && Math.max(done, total) > maxBytes) {
            throw tooLarge(ref, Math.max(done, total), maxBytes, "stopped the pull");
          }
          progress.pulled(done, known);
        }
      });
      JsonObject pulled = maxBytes == null ? null : engine.image(ref);
      long size = pulled == null ? 0 : pulled.getLong("Size", 0L);
      if (size > maxBytes(maxBytes)) {
        engine.removeImage(ref);
        throw tooLarge(ref, size, maxBytes, "removed it again");
      }
    } catch (IOException e) {
      throw new InstanceFailure(InstanceFailure.IMAGE_UNAVAILABLE, e.getMessage());
    }
  }

  private static long maxBytes(Long maxBytes) {
    return maxBytes == null ? Long.MAX_VALUE : maxBytes;
  }

  private static InstanceFailure tooLarge(String ref, long bytes, long maxBytes, String what) {
    LOG.warn("the image {} is past this host's limit for a renter's pull ({} > {} bytes): {}", ref, bytes, maxBytes, what);
    return new InstanceFailure(InstanceFailure.IMAGE_TOO_LARGE, "the image " + ref + " is larger than this host pulls"
        + " for a renter's image (at least " + bytes + " bytes, the limit is " + maxBytes + "): " + what);
  }

  /**
   * Bytes per layer from the engine's events: {@code Downloading} carries current/total (Docker
   * always; Podman 4.3 only on pulls slow enough for its progress ticks), {@code Download complete}
   * makes a layer whole. True when something changed.
   */
  private static boolean layerProgress(JsonObject event, Map<String, long[]> layers) {
    String layer = event.getString("id");
    String status = String.valueOf(event.getString("status"));
    JsonObject detail = event.getJsonObject("progressDetail", new JsonObject());
    if (layer == null) {
      return false;
    }
    if (status.startsWith("Downloading") && detail.containsKey("current")) {
      layers.put(layer, new long[] {detail.getLong("current", 0L), detail.getLong("total", 0L)});
      return true;
    }
    if (status.startsWith("Pulling fs layer")) {
      layers.putIfAbsent(layer, new long[] {0, 0});
      return true;
    }
    long[] known = layers.get(layer);
    if (status.startsWith("Download complete") && known != null && known[1] > 0) {
      known[0] = known[1];
      return true;
    }
    return false;
  }

  void used(String ref) {
    used(ref, Instant.now());
  }

  void used(String ref, Instant when) {
    lastUsed.put(ref, when);
  }

  /** The cache now (blocking). */
  public List<Cached> cached() throws IOException {
    List<Cached> cached = new ArrayList<>();
    for (Object o : engine.images()) {
      JsonObject image = (JsonObject) o;
      JsonArray tags = image.getJsonArray("RepoTags", new JsonArray());
      JsonArray digests = image.getJsonArray("RepoDigests", new JsonArray());
      String ref = !tags.isEmpty() ? tags.getString(0) : !digests.isEmpty() ? digests.getString(0) : image.getString("Id");
      String digest = digests.isEmpty() ? image.getString("Id") : digests.getString(0).replaceFirst("^.*@", "");
      Instant used = tags.stream().map(t -> lastUsed.get(String.valueOf(t))).filter(java.util.Objects::nonNull)
          .max(Comparator.naturalOrder()).orElse(Instant.ofEpochSecond(image.getLong("Created", 0L)));
      cached.add(new Cached(ref, digest, image.getLong("Size", 0L), used));
    }
    return cached;
  }

  /**
   * The cache against the operator's watermark ({@code limitBytes}, null: none): first evicts the
   * least recently used images while the cache is past it, never one in {@code inUse} nor a
   * template; then pre-pulls the templates not cached yet, but only into room under the watermark:
   * none while the cache is at or past it, none whose size (known from an earlier try) would not
   * fit, and one that turns out past it once pulled is removed again and its size remembered, so a
   * pre-pull never leaves the cache past the watermark and is not retried on every desired state.
   * A pull a renter's start needs is bounded by the renter's pull limit instead ({@link #ensureForStart}).
   */
  /** The operator's templates, from each desired state's pre-pull list. */
  public void templates(List<String> prePull) {
    templates = Set.copyOf(prePull);
  }

  public void maintain(List<String> prePull, Long limitBytes, Set<String> inUse) throws IOException {
    templates(prePull);
    if (limitBytes != null) {
      evict(limitBytes, inUse, prePull);
    }
    for (String ref : prePull) {
      if (engine.image(ref) != null) {
        continue;
      }
      long total = total();
      if (limitBytes != null && total + tooBig.getOrDefault(ref, 0L) >= limitBytes) {
        LOG.debug("no pre-pull of {}: the cache ({} bytes) has no room for it under {}", ref, total, limitBytes);
        continue;
      }
      try {
        ensure(ref, null, (done, total1) -> { });
      } catch (InstanceFailure e) {
        LOG.warn("pre-pull of {} failed: {}", ref, e.getMessage());
        continue;
      }
      long after = total();
      if (limitBytes != null && after > limitBytes && !inUse.contains(ref)) {
        tooBig.put(ref, after - total);
        LOG.info("pre-pulled {} ({} bytes) does not fit under the image cache limit of {} bytes: removed again",
            ref, after - total, limitBytes);
        engine.removeImage(ref);
      }
    }
  }

  private void evict(long limitBytes, Set<String> inUse, List<String> templates) throws IOException {
    List<Cached> byAge = new ArrayList<>(cached());
    byAge.sort(Comparator.comparing(Cached::lastUsedAt));
    long total = byAge.stream().mapToLong(Cached::sizeBytes).sum();
    for (Cached c : byAge) {
      if (total <= limitBytes) {
        break;
      }
      if (inUse.contains(c.ref()) || templates.contains(c.ref())) {
        continue;
      }
      LOG.info("evicting image {} ({} bytes, last used {})", c.ref(), c.sizeBytes(), c.lastUsedAt());
      engine.removeImage(c.ref());
      total -= c.sizeBytes();
    }
  }

  private long total() throws IOException {
    return cached().stream().mapToLong(Cached::sizeBytes).sum();
  }
}
