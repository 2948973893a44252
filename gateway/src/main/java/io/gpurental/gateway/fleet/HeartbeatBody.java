package io.gpurental.gateway.fleet;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Proves a heartbeat's body valid against {@code sendHeartbeat}'s schema in openapi.yaml, in code:
 * the generic validator took a quarter of a heartbeat's CPU (docs/benchmarks.md, part 10). It
 * accepts only what the schema accepts, and a little less (a whole number written as {@code 1.0},
 * a number beyond a long or a double, a media type with parameters): whatever it does not prove
 * goes through the generic validator, which gives the contract's answer. The schema stays the
 * contract; {@code HeartbeatBodyTest} checks this against it.
 */
final class HeartbeatBody {
  private static final Set<String> TOP = Set.of("agent_version", "sent_at", "telemetry", "images");
  private static final Set<String> IMAGE = Set.of("ref", "digest", "size_bytes", "last_used_at");
  private static final int MAX_GPUS = 64;
  private static final int MAX_IMAGES = 1000;
  private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z");

  private HeartbeatBody() {}

  /** True when the request's body is proven valid; false means "ask the validator". */
  static boolean provenValid(RoutingContext ctx) {
    if (!"application/json".equals(ctx.request().getHeader("Content-Type")) || ctx.body().length() <= 0) {
      return false;
    }
    try {
      JsonObject body = ctx.body().asJsonObject();
      return body != null && provenValid(body);
    } catch (RuntimeException e) {
      // not JSON, or not an object: the validator's answer
      return false;
    }
  }

  static boolean provenValid(JsonObject body) {
    Map<String, Object> fields = body.getMap();
    for (Map.Entry<String, Object> field : fields.entrySet()) {
      if (!TOP.contains(field.getKey())) {
        return false;
      }
    }
    return fields.get("agent_version") instanceof String version && version.length() <= 64
        && (!fields.containsKey("sent_at") || fields.get("sent_at") instanceof String)
        && (!fields.containsKey("telemetry") || object(fields.get("telemetry")) instanceof Map<?, ?> telemetry
            && telemetry(telemetry))
        && (!fields.containsKey("images") || array(fields.get("images")) instanceof List<?> images && images(images));
  }

  private static boolean telemetry(Map<?, ?> t) {
    // other fields are allowed: a newer agent may report more
    return atLeast(t, "disk_free_gb", 0) && atLeast(t, "load_1m", 0) && atLeast(t, "power_w", 0)
        && atLeast(t, "rtt_ms", 0) && oneOf(t.get("power_source"), "measured", "estimated")
        && oneOf(t.get("disk_health"), "passed", "failed")
        && (!t.containsKey("gpus") || array(t.get("gpus")) instanceof List<?> gpus && gpus(gpus));
  }

  private static boolean gpus(List<?> gpus) {
    if (gpus.size() > MAX_GPUS) {
      return false;
    }
    for (Object item : gpus) {
      if (!(object(item) instanceof Map<?, ?> gpu) || !gpu(gpu)) {
        return false;
      }
    }
    return true;
  }

  private static boolean gpu(Map<?, ?> g) {
    return whole(g.get("index")) && inRange((Number) g.get("index"), 0, 1023)
        && nullOr(g.get("uuid"), String.class)
        && between(g, "temperature_c", -100, 300) && atLeast(g, "power_draw_w", 0)
        && between(g, "utilization_pct", 0, 100) && atLeast(g, "memory_used_mib", 0)
        && atLeast(g, "memory_total_mib", 0)
        && (g.get("ecc_uncorrected") == null || whole(g.get("ecc_uncorrected"))
            && ((Number) g.get("ecc_uncorrected")).longValue() >= 0)
        && nullOr(g.get("remapped_rows_failure"), Boolean.class) && nullOr(g.get("leftover_processes"), Boolean.class);
  }

  private static boolean images(List<?> images) {
    if (images.size() > MAX_IMAGES) {
      return false;
    }
    for (Object item : images) {
      if (!(object(item) instanceof Map<?, ?> image) || !image(image)) {
        return false;
      }
    }
    return true;
  }

  private static boolean image(Map<?, ?> i) {
    for (Object key : i.keySet()) {
      if (!IMAGE.contains(key)) {
        return false;
      }
    }
    // a string's length in UTF-16 units is at least its length in code points, which the schema counts
    return i.get("ref") instanceof String ref && !ref.isEmpty() && ref.length() <= 512
        && (i.get("digest") == null || i.get("digest") instanceof String digest && digest.length() <= 100)
        && (i.get("size_bytes") == null || whole(i.get("size_bytes")) && ((Number) i.get("size_bytes")).longValue() >= 0)
        && (i.get("last_used_at") == null || i.get("last_used_at") instanceof String at
            && dateTime(at));
  }

  /** An instant as agents write it (UTC, {@code Instant.toString()}), a real one: a subset of RFC 3339's date-time. */
  private static boolean dateTime(String value) {
    if (!INSTANT.matcher(value).matches()) {
      return false;
    }
    try {
      OffsetDateTime.parse(value);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }

  /** Absent, null, or a number of at least {@code min} (the schema's {@code [number, 'null']}). */
  private static boolean atLeast(Map<?, ?> fields, String name, double min) {
    Object value = fields.get(name);
    return value == null || number(value) && ((Number) value).doubleValue() >= min;
  }

  private static boolean between(Map<?, ?> fields, String name, double min, double max) {
    Object value = fields.get(name);
    return value == null || number(value) && inRange((Number) value, min, max);
  }

  private static boolean inRange(Number value, double min, double max) {
    return value.doubleValue() >= min && value.doubleValue() <= max;
  }

  /** Integers as the JSON parser gives them; anything rarer (1.0, a BigInteger) is left to the validator. */
  private static boolean whole(Object value) {
    return value instanceof Integer || value instanceof Long;
  }

  private static boolean number(Object value) {
    return whole(value) || value instanceof Double d && Double.isFinite(d);
  }

  /** A JSON object's fields as a Map (a nested object may be parsed as a JsonObject or a plain map), else itself. */
  private static Object object(Object value) {
    return value instanceof JsonObject json ? json.getMap() : value;
  }

  /** A JSON array's items as a List, else itself. */
  private static Object array(Object value) {
    return value instanceof JsonArray json ? json.getList() : value;
  }

  private static boolean nullOr(Object value, Class<?> type) {
    return value == null || type.isInstance(value);
  }

  private static boolean oneOf(Object value, String a, String b) {
    return value == null || a.equals(value) || b.equals(value);
  }
}
