package io.gpurental.gateway.sandbox.hosts;

import io.gpurental.agent.runtime.InstanceFailure;
import io.gpurental.agent.simulated.Faults;
import io.gpurental.agent.simulated.Faults.FailProvisioning;
import io.gpurental.agent.simulated.Faults.GpuFault;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.Invalid.FieldError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The JSON of the demo hosts' fault controls: {@link #validate} checks a request body (each
 * mistake a field error), {@link #apply} merges a checked body into a host's faults (an absent
 * field stays, a null one goes back to the simulated value), {@link #toJson} shows them.
 */
final class DemoFaults {
  private static final Set<String> FIELDS = Set.of("heartbeats", "gpus", "disk_free_gb", "disk_health",
      "fail_provisioning", "provisioning_delay_ms", "provisioning_held");
  private static final Set<String> GPU_FIELDS = Set.of("index", "temperature_c", "ecc_uncorrected", "remapped_rows_failure");
  private static final long MAX_DELAY_MS = 86_400_000;

  private DemoFaults() {
  }

  /** Throws {@link Invalid} listing every problem of the body, for a host with {@code gpuCount} GPUs. */
  static void validate(JsonObject body, int gpuCount) {
    List<FieldError> errors = new ArrayList<>();
    body.fieldNames().stream().filter(f -> !FIELDS.contains(f)).sorted()
        .forEach(f -> errors.add(new FieldError("#/" + f, "unknown field; allowed: " + String.join(", ", new TreeSet<>(FIELDS)))));
    oneOf(body, "heartbeats", Set.of("stopped", "running"), false, errors);
    oneOf(body, "disk_health", Set.of("passed", "failed"), true, errors);
    number(body, "#/disk_free_gb", "disk_free_gb", 0, 1e9, true, false, errors);
    number(body, "#/provisioning_delay_ms", "provisioning_delay_ms", 0, MAX_DELAY_MS, true, true, errors);
    if (body.containsKey("provisioning_held") && !(body.getValue("provisioning_held") instanceof Boolean)) {
      errors.add(new FieldError("#/provisioning_held", "must be true or false"));
    }
    failProvisioning(body, errors);
    gpus(body, gpuCount, errors);
    if (!errors.isEmpty()) {
      throw new Invalid(errors.size() == 1 ? errors.get(0).detail() + " (" + errors.get(0).pointer() + ")"
          : errors.size() + " fields are wrong; see errors", errors);
    }
  }

  private static void failProvisioning(JsonObject body, List<FieldError> errors) {
    if (!body.containsKey("fail_provisioning") || body.getValue("fail_provisioning") == null) {
      return;
    }
    if (!(body.getValue("fail_provisioning") instanceof JsonObject fail)) {
      errors.add(new FieldError("#/fail_provisioning", "must be an object {\"reason\": …, \"count\": n} or null"));
      return;
    }
    fail.fieldNames().stream().filter(f -> !Set.of("reason", "count").contains(f)).sorted()
        .forEach(f -> errors.add(new FieldError("#/fail_provisioning/" + f, "unknown field; allowed: reason, count")));
    if (!(fail.getValue("reason") instanceof String reason) || !InstanceFailure.REASONS.contains(reason)) {
      errors.add(new FieldError("#/fail_provisioning/reason", "required, one of " + String.join(", ",
          new TreeSet<>(InstanceFailure.REASONS))));
    }
    number(fail, "#/fail_provisioning/count", "count", 1, 1000, false, true, errors);
  }

  private static void gpus(JsonObject body, int gpuCount, List<FieldError> errors) {
    if (!body.containsKey("gpus")) {
      return;
    }
    if (!(body.getValue("gpus") instanceof JsonArray gpus)) {
      errors.add(new FieldError("#/gpus", "must be a list of {\"index\": i, …}"));
      return;
    }
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < gpus.size(); i++) {
      String at = "#/gpus/" + i;
      if (!(gpus.getValue(i) instanceof JsonObject gpu)) {
        errors.add(new FieldError(at, "must be an object {\"index\": i, …}"));
        continue;
      }
      gpu.fieldNames().stream().filter(f -> !GPU_FIELDS.contains(f)).sorted()
          .forEach(f -> errors.add(new FieldError(at + "/" + f, "unknown field; allowed: " + String.join(", ",
              new TreeSet<>(GPU_FIELDS)))));
      if (!gpu.containsKey("index")) {
        errors.add(new FieldError(at + "/index", "required"));
      } else if (number(gpu, at + "/index", "index", 0, gpuCount - 1, false, true, errors) && !seen.add(gpu.getValue("index"))) {
        errors.add(new FieldError(at + "/index", "GPU " + gpu.getValue("index") + " is listed twice"));
      }
      number(gpu, at + "/temperature_c", "temperature_c", -50, 200, true, true, errors);
      number(gpu, at + "/ecc_uncorrected", "ecc_uncorrected", 0, 1e12, true, true, errors);
      if (gpu.containsKey("remapped_rows_failure") && gpu.getValue("remapped_rows_failure") != null
          && !(gpu.getValue("remapped_rows_failure") instanceof Boolean)) {
        errors.add(new FieldError(at + "/remapped_rows_failure", "must be true, false or null"));
      }
    }
  }

  private static void oneOf(JsonObject body, String field, Set<String> values, boolean nullable, List<FieldError> errors) {
    if (!body.containsKey(field) || (nullable && body.getValue(field) == null)) {
      return;
    }
    if (!(body.getValue(field) instanceof String value) || !values.contains(value)) {
      errors.add(new FieldError("#/" + field, "must be one of " + String.join(", ", new TreeSet<>(values))
          + (nullable ? " or null" : "")));
    }
  }

  /** True when the field is absent, null (if allowed) or a number in range (whole if asked). */
  private static boolean number(JsonObject json, String pointer, String field, double min, double max,
      boolean nullable, boolean whole, List<FieldError> errors) {
    if (!json.containsKey(field) || (nullable && json.getValue(field) == null)) {
      return true;
    }
    Object value = json.getValue(field);
    boolean ok = value instanceof Number n && n.doubleValue() >= min && n.doubleValue() <= max
        && (!whole || (value instanceof Integer || value instanceof Long));
    if (!ok) {
      errors.add(new FieldError(pointer, "must be " + (whole ? "a whole number" : "a number") + " from "
          + fmt(min) + " to " + fmt(max) + (nullable ? " or null" : "")));
    }
    return ok;
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  /** The faults after a checked body: absent fields stay as they are. */
  static Faults apply(Faults f, JsonObject body) {
    TreeMap<Integer, GpuFault> gpus = new TreeMap<>(f.gpus());
    for (Object o : body.getJsonArray("gpus", new JsonArray())) {
      JsonObject g = (JsonObject) o;
      int index = g.getInteger("index");
      GpuFault was = gpus.getOrDefault(index, new GpuFault(null, null, null));
      GpuFault now = new GpuFault(g.containsKey("temperature_c") ? g.getLong("temperature_c") : was.temperatureC(),
          g.containsKey("ecc_uncorrected") ? g.getLong("ecc_uncorrected") : was.eccUncorrected(),
          g.containsKey("remapped_rows_failure") ? g.getBoolean("remapped_rows_failure") : was.remappedRowsFailure());
      if (now.empty()) {
        gpus.remove(index);
      } else {
        gpus.put(index, now);
      }
    }
    JsonObject fail = body.getJsonObject("fail_provisioning");
    return new Faults(
        body.containsKey("heartbeats") ? "stopped".equals(body.getString("heartbeats")) : f.heartbeatsStopped(),
        gpus,
        body.containsKey("disk_free_gb") ? body.getDouble("disk_free_gb") : f.diskFreeGb(),
        body.containsKey("disk_health") ? body.getString("disk_health") : f.diskHealth(),
        !body.containsKey("fail_provisioning") ? f.failProvisioning()
            : fail == null ? null : new FailProvisioning(fail.getString("reason"), fail.getInteger("count", 1)),
        body.containsKey("provisioning_delay_ms") ? body.getLong("provisioning_delay_ms") : f.provisioningDelayMs(),
        body.containsKey("provisioning_held") ? body.getBoolean("provisioning_held") : f.provisioningHeld());
  }

  static JsonObject toJson(String hostId, Faults f) {
    JsonArray gpus = new JsonArray();
    new TreeMap<>(f.gpus()).forEach((index, g) -> gpus.add(new JsonObject().put("index", index)
        .put("temperature_c", g.temperatureC()).put("ecc_uncorrected", g.eccUncorrected())
        .put("remapped_rows_failure", g.remappedRowsFailure())));
    FailProvisioning fail = f.failProvisioning();
    return new JsonObject().put("host_id", hostId).put("healthy", Faults.HEALTHY.equals(f))
        .put("heartbeats", f.heartbeatsStopped() ? "stopped" : "running").put("gpus", gpus)
        .put("disk_free_gb", f.diskFreeGb()).put("disk_health", f.diskHealth())
        .put("fail_provisioning", fail == null ? null : new JsonObject().put("reason", fail.reason()).put("count", fail.remaining()))
        .put("provisioning_delay_ms", f.provisioningDelayMs()).put("provisioning_held", f.provisioningHeld());
  }
}
