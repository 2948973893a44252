package io.gpurental.bench;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Bodies of the agent protocol (docs/agent-protocol.md) for an 8-GPU H100 host. */
final class Telemetry {
  static final String GPU_NAME = "NVIDIA H100 80GB HBM3";
  static final int GPUS = 8;

  private Telemetry() {}

  static String uuid(int host, int gpu) {
    return "GPU-" + host + "-" + gpu + "-bench-3b6c5a1e";
  }

  /** What the agent reports at enrolment: the host's facts and its GPUs. */
  static JsonObject enrolment(int host) {
    JsonArray gpus = new JsonArray();
    for (int i = 0; i < GPUS; i++) {
      gpus.add(new JsonObject().put("index", i).put("uuid", uuid(host, i)).put("name", GPU_NAME)
          .put("memory_total_mib", 81559));
    }
    JsonObject facts = new JsonObject().put("hostname", "bench-" + host).put("cpu_model", "AMD EPYC 9354 32-Core Processor")
        .put("cpu_cores", 64).put("ram_gb", 1024).put("disk_gb", 7680).put("net_gbps", 100)
        .put("driver_version", "550.54.15").put("cuda_version", "12.4").put("gpus", gpus);
    return new JsonObject().put("agent_version", "0.1.0").put("facts", facts);
  }

  /** One heartbeat with a full nvidia-smi reading of all eight GPUs, slightly varied by {@code n}. */
  static JsonObject heartbeat(int host, long n) {
    JsonArray gpus = new JsonArray();
    for (int i = 0; i < GPUS; i++) {
      gpus.add(new JsonObject().put("index", i).put("uuid", uuid(host, i))
          .put("temperature_c", 55 + (n + i) % 10).put("power_draw_w", 420.5 + (n % 7) * 10)
          .put("utilization_pct", 80 + (n + i) % 20).put("memory_used_mib", 61440).put("memory_total_mib", 81559)
          .put("ecc_uncorrected", 0).put("remapped_rows_failure", false));
    }
    JsonObject telemetry = new JsonObject().put("disk_free_gb", 5120.5).put("load_1m", 12.4).put("power_w", 4650.0)
        .put("power_source", "measured").put("disk_health", "passed").put("rtt_ms", 2.5).put("gpus", gpus);
    return new JsonObject().put("agent_version", "0.1.0").put("sent_at", java.time.Instant.now().toString())
        .put("telemetry", telemetry);
  }
}
