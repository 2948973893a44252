package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One heartbeat's telemetry (docs/agent-protocol.md): the host as a whole and each GPU. A null is
 * a value the agent could not read. The contract has checked the types; {@link #of} refuses what
 * it cannot (a GPU index twice) as a 400 naming the field.
 */
record Telemetry(Double diskFreeGb, Double load1m, Double powerW, String powerSource, String diskHealth,
    Double rttMs, List<Gpu> gpus) {
  /** One GPU's reading. */
  record Gpu(int index, Double temperatureC, Double powerDrawW, Double utilizationPct, Double memoryUsedMib,
      Long eccUncorrected, Boolean remappedRowsFailure, Boolean leftoverProcesses) {

    Gpu(int index, Double temperatureC, Double powerDrawW, Double utilizationPct, Double memoryUsedMib,
        Long eccUncorrected, Boolean remappedRowsFailure) {
      this(index, temperatureC, powerDrawW, utilizationPct, memoryUsedMib, eccUncorrected, remappedRowsFailure, null);
    }
  }

  static final Telemetry NONE = new Telemetry(null, null, null, null, null, null, List.of());

  static Telemetry of(JsonObject json) {
    if (json == null) {
      return NONE;
    }
    JsonArray list = json.getJsonArray("gpus", new JsonArray());
    List<Gpu> gpus = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonObject gpu = list.getJsonObject(i);
      int index = gpu.getInteger("index");
      if (!seen.add(index)) {
        throw new Invalid("GPU " + index + " is reported twice.",
            List.of(new Invalid.FieldError("#/telemetry/gpus/" + i + "/index", "reported twice")));
      }
      Number ecc = gpu.getNumber("ecc_uncorrected");
      gpus.add(new Gpu(index, number(gpu, "temperature_c"), number(gpu, "power_draw_w"),
          number(gpu, "utilization_pct"), number(gpu, "memory_used_mib"), ecc == null ? null : ecc.longValue(),
          gpu.getBoolean("remapped_rows_failure"), gpu.getBoolean("leftover_processes")));
    }
    return new Telemetry(number(json, "disk_free_gb"), number(json, "load_1m"), number(json, "power_w"),
        json.getString("power_source"), json.getString("disk_health"), number(json, "rtt_ms"), List.copyOf(gpus));
  }

  private static Double number(JsonObject json, String field) {
    Number value = json.getNumber(field);
    return value == null ? null : value.doubleValue();
  }
}
