package io.gpurental.gateway.fleet;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * What an agent reports about its host at enrolment (docs/agent-protocol.md), kept as sent too;
 * {@code runtime}, {@code containerToolkitVersion} and {@code engine} are null from agents older
 * than Fleet III (not known).
 */
record HostFacts(String agentVersion, String hostname, String cpuModel, int cpuCores, int ramGb, int diskGb,
    Integer netGbps, String interconnect, String driverVersion, String cudaVersion, List<Gpu> gpus, JsonObject raw,
    String runtime, String containerToolkitVersion, String engine) {

  /** One GPU as nvidia-smi names it. */
  record Gpu(int index, String uuid, String name, long memoryTotalMib) {}

  /** From the enrolment body, already validated against the contract. */
  static HostFacts of(JsonObject body) {
    JsonObject facts = body.getJsonObject("facts");
    List<Gpu> gpus = new ArrayList<>();
    JsonArray reported = facts.getJsonArray("gpus");
    for (int i = 0; i < reported.size(); i++) {
      JsonObject gpu = reported.getJsonObject(i);
      gpus.add(new Gpu(gpu.getInteger("index"), gpu.getString("uuid"), gpu.getString("name").trim(),
          gpu.getLong("memory_total_mib")));
    }
    return new HostFacts(body.getString("agent_version"), facts.getString("hostname"), facts.getString("cpu_model"),
        facts.getInteger("cpu_cores"), facts.getInteger("ram_gb"), facts.getInteger("disk_gb"),
        facts.getInteger("net_gbps"), facts.getString("interconnect", "PCIe"), facts.getString("driver_version"),
        facts.getString("cuda_version"), gpus, facts, facts.getString("runtime"),
        facts.getString("container_toolkit_version"), facts.getString("engine"));
  }
}
