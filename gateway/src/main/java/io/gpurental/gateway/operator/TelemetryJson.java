package io.gpurental.gateway.operator;

import io.gpurental.gateway.fleet.Hosts;
import io.gpurental.gateway.fleet.TelemetryReads;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Host telemetry as operators see it: the latest samples, and {@code /operator/hosts/{id}/telemetry}. */
final class TelemetryJson {
  /** The longest range one request may ask for (the roll-ups are kept about this long). */
  static final Duration MAX_RANGE = Duration.ofDays(400);
  private static final Duration DEFAULT_RANGE = Duration.ofHours(6);

  private TelemetryJson() {}

  static JsonObject host(TelemetryReads.HostSample sample) {
    return new JsonObject().put("at", sample.at().toString()).put("power_w", sample.powerW())
        .put("power_source", sample.powerSource()).put("disk_free_gb", sample.diskFreeGb())
        .put("disk_health", sample.diskHealth()).put("load_1m", sample.load1m()).put("rtt_ms", sample.rttMs());
  }

  static JsonObject latestGpu(TelemetryReads.Latest latest, int index) {
    if (latest == null) {
      return null;
    }
    return latest.gpus().stream().filter(g -> g.index() == index).findFirst()
        .map(g -> new JsonObject().put("at", g.at().toString()).put("temperature_c", g.temperatureC())
            .put("power_draw_w", g.powerDrawW()).put("utilization_pct", g.utilizationPct())
            .put("memory_used_mib", g.memoryUsedMib()).put("ecc_uncorrected", g.eccUncorrected())
            .put("remapped_rows_failure", g.remappedRowsFailure()))
        .orElse(null);
  }

  /** Answers the host's series over [from, to): 400 for a reversed, empty or too long range, 404 for no host. */
  static void series(RoutingContext ctx, Hosts hosts) {
    String hostId = ctx.pathParam("host_id");
    Instant to = time(ctx, "to", Instant.now());
    Instant from = time(ctx, "from", to.minus(DEFAULT_RANGE));
    if (!from.isBefore(to)) {
      throw new Invalid("from must be before to.", List.of(new Invalid.FieldError("#/from", "not before to")));
    }
    if (Duration.between(from, to).compareTo(MAX_RANGE) > 0) {
      throw new Invalid("The range may span at most " + MAX_RANGE.toDays() + " days.",
          List.of(new Invalid.FieldError("#/from", "more than " + MAX_RANGE.toDays() + " days before to")));
    }
    hosts.get(hostId).compose(host -> host.isEmpty()
            ? Future.<TelemetryReads.Series>failedFuture(new NotFound("There is no host " + hostId + "."))
            : hosts.telemetry().series(hostId, from, to))
        .onSuccess(series -> ctx.json(toJson(hostId, from, to, series)))
        .onFailure(ctx::fail);
  }

  private static JsonObject toJson(String hostId, Instant from, Instant to, TelemetryReads.Series series) {
    JsonArray host = new JsonArray();
    series.host().forEach(p -> host.add(new JsonObject().put("at", p.at().toString()).put("power_w", p.powerW())
        .put("disk_free_gb", p.diskFreeGb()).put("rtt_ms", p.rttMs())));
    Map<Integer, JsonArray> byGpu = new TreeMap<>();
    series.gpus().forEach(p -> byGpu.computeIfAbsent(p.index(), i -> new JsonArray()).add(new JsonObject()
        .put("at", p.at().toString()).put("temperature_c", p.temperatureC())
        .put("temperature_max_c", p.temperatureMaxC()).put("power_draw_w", p.powerDrawW())
        .put("utilization_pct", p.utilizationPct())));
    JsonArray gpus = new JsonArray();
    byGpu.forEach((index, points) -> gpus.add(new JsonObject().put("index", index).put("points", points)));
    return new JsonObject().put("host_id", hostId).put("from", from.toString()).put("to", to.toString())
        .put("resolution", series.resolution()).put("bucket_seconds", series.bucket().toSeconds())
        .put("max_points", TelemetryReads.MAX_POINTS).put("host", host).put("gpus", gpus);
  }

  private static Instant time(RoutingContext ctx, String name, Instant otherwise) {
    String raw = ctx.request().getParam(name);
    if (raw == null || raw.isBlank()) {
      return otherwise;
    }
    try {
      return OffsetDateTime.parse(raw.trim()).toInstant();
    } catch (DateTimeParseException e) {
      throw new Invalid(name + " must be an RFC 3339 time.",
          List.of(new Invalid.FieldError("#/" + name, "not an RFC 3339 time")));
    }
  }
}
