package io.gpurental.gateway.fleet;

import io.gpurental.gateway.config.HealthConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.vertx.sqlclient.Pool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A host's heartbeat, in one transaction: the latest heartbeat, an offline host back to active,
 * the telemetry as samples, and the health rules. After it commits, every host status and GPU
 * health change is announced cluster-wide ({@link HostChanges}: the catalog drops its cache) and
 * instances on a GPU that turned faulty (or recovered) are told through their events.
 */
final class Heartbeats {
  private static final Logger LOG = LoggerFactory.getLogger(Heartbeats.class);
  private final Vertx vertx;
  private final Pool pool;
  private final AgentFleet fleet;
  private final HealthConfig rules;

  Heartbeats(Vertx vertx, Pool pool, AgentFleet fleet, HealthConfig rules) {
    this.vertx = vertx;
    this.pool = pool;
    this.fleet = fleet;
    this.rules = rules;
  }

  /** One image in a host's cache as its heartbeat reports it. */
  record CachedImage(String ref, String digest, Long sizeBytes, OffsetDateTime lastUsedAt) {}

  /** The heartbeat's {@code images}; null when absent (an agent that does not report its cache: kept as it was). */
  static List<CachedImage> images(JsonArray reported) {
    if (reported == null) {
      return null;
    }
    Map<String, CachedImage> images = new LinkedHashMap<>();
    for (int i = 0; i < reported.size(); i++) {
      JsonObject image = reported.getJsonObject(i);
      String lastUsed = image.getString("last_used_at");
      // the last report of a reference wins (an engine may list one image under two ids)
      images.put(image.getString("ref"), new CachedImage(image.getString("ref"), image.getString("digest"),
          image.getLong("size_bytes"), lastUsed == null ? null : OffsetDateTime.parse(lastUsed)));
    }
    return new ArrayList<>(images.values());
  }

  /**
   * Records the heartbeat; answers the host's desired-state version (for the agent's answer).
   * {@code isolation}: the container runtime's isolation facts when the agent says they changed
   * (else null, and the facts stay as they are).
   */
  Future<Long> record(String hostId, String agentVersion, JsonObject raw, Telemetry telemetry,
      List<CachedImage> images, JsonObject isolation) {
    record Outcome(boolean back, HealthRepository.Changes changes, boolean cacheChanged) {}
    // every statement is a round trip: the GPU rows are locked and checked in one, the host's
    // desired version is read with its row (docs/benchmarks.md, "Hold and heartbeat profile")
    return pool.withTransaction(tx -> HealthRepository.lockGpus(tx, hostId)
            .compose(gpus -> {
              TelemetryRepository.checkGpus(gpus.indexes(), telemetry);
              return HostRepository.heartbeat(tx, hostId, agentVersion, raw).map(back -> Map.entry(back, gpus));
            })
            .compose(locked -> isolation == null ? Future.succeededFuture(locked)
                : HostRepository.isolation(tx, hostId, isolation).map(locked))
            .compose(locked -> TelemetryRepository.insert(tx, hostId, telemetry)
                .compose(v -> HealthRepository.apply(tx, hostId, locked.getValue(), telemetry, rules))
                .compose(changes -> (images == null ? Future.succeededFuture(false)
                    : ImageRepository.replaceCache(tx, hostId, images))
                    .map(cacheChanged -> new Outcome(locked.getKey(), changes, cacheChanged)))))
        .compose(outcome -> {
          if (outcome.cacheChanged()) {
            // the catalog shows per template whether the host has it cached
            HostChanges.publishImages(vertx, hostId);
          }
          return announce(hostId, outcome.back(), outcome.changes()).map(outcome.changes().desiredVersion());
        });
  }

  private Future<Void> announce(String hostId, boolean back, HealthRepository.Changes changes) {
    if (back && changes.hostStatus().isEmpty()) {
      HostChanges.publish(vertx, hostId, HostLifecycle.ACTIVE);
    }
    changes.hostStatus().ifPresent(status -> {
      LOG.info("Host {} is {} by a health rule", hostId, status);
      HostChanges.publish(vertx, hostId, status);
    });
    changes.gpus().forEach(change -> {
      LOG.info("GPU {} of host {} is {}{}", change.index(), hostId, change.to(),
          change.reason() == null ? "" : ": " + change.reason());
      HostChanges.publishGpu(vertx, hostId, change.index(), change.to());
    });
    // the change is committed: a listener's failure is logged, not the agent's problem; the
    // instances a host back from offline runs are served again (their credits)
    Future<Void> served = back ? fleet.hostBack(hostId, java.time.Instant.now())
        .onFailure(e -> LOG.error("Instances on host {} were not told it is back", hostId, e))
        .recover(e -> Future.succeededFuture()) : Future.succeededFuture();
    return served.compose(v -> Future.all(changes.gpus().stream().map(change -> fleet.gpuHealthChanged(hostId, change)
        .onFailure(e -> LOG.error("Instances on GPU {} of host {} were not told it is {}", change.index(), hostId,
            change.to(), e))
        .recover(e -> Future.succeededFuture())).toList())).mapEmpty();
  }
}
