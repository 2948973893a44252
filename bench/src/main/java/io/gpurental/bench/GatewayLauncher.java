package io.gpurental.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Starts the gateway jar with its embedded defaults, its own data directory under the run's temp
 * directory (never ./data), free loopback ports and a cluster of its own.
 */
final class GatewayLauncher {
  /**
   * The JVM options of the Dockerfile's ENTRYPOINT (ContainerSettingsTest keeps the two alike), so
   * the harness measures the gateway as the image runs it: the serial collector and half the
   * memory for the heap (docs/benchmarks.md, part 10).
   */
  static final List<String> CONTAINER_JVM = List.of("-XX:+UseSerialGC", "-XX:MaxRAMPercentage=50",
      "-XX:+ExitOnOutOfMemoryError");
  /**
   * The memory limit of the container the figures stand for (512 MiB): the JVM sizes its heap from
   * it as it does from a container's cgroup limit. Without a limit it took a quarter of this
   * machine's memory, and committed its whole heap from the start (initial heap 1/64 of 23 GiB).
   */
  static final String CONTAINER_MEMORY = "-XX:MaxRAM=512m";

  private GatewayLauncher() {}

  static ServerProcess start(Path jar, Path work, int pgPort) {
    return start(jar, work, pgPort, Map.of());
  }

  /** As {@link #start(Path, Path, int)}, with settings of the run's own on top. */
  static ServerProcess start(Path jar, Path work, int pgPort, Map<String, String> settings) {
    return start(jar, work, pgPort, settings, List.of());
  }

  /** As {@link #start(Path, Path, int, Map)}, with JVM options of the run's own (e.g. a flight recording). */
  static ServerProcess start(Path jar, Path work, int pgPort, Map<String, String> settings, List<String> jvmOptions) {
    int http = FreePort.next();
    Map<String, String> env = new HashMap<>();
    env.put("GATEWAY_HTTP_PORT", Integer.toString(http));
    env.put("GATEWAY_HTTP_PUBLIC_URL", "http://" + Loopback.HOST + ":" + http);
    env.put("GATEWAY_HTTP_DRAIN_TIMEOUT_SECONDS", "5");
    env.put("GATEWAY_MANAGEMENT_PORT", Integer.toString(FreePort.next()));
    env.put("GATEWAY_DB_URL", "");
    env.put("GATEWAY_DB_EMBEDDED_DATA_DIR", work.resolve("postgres").toString());
    env.put("GATEWAY_DB_EMBEDDED_PORT", Integer.toString(pgPort));
    env.put("GATEWAY_CLUSTER_NAME", "bench-" + UUID.randomUUID());
    env.put("GATEWAY_CLUSTER_PORT", Integer.toString(FreePort.next()));
    env.put("GATEWAY_CLUSTER_PORT_COUNT", "1");
    env.put("GATEWAY_CLUSTER_MEMBERS", "");
    // the load is the point: the abuse limit on writes (quotes, heartbeats) would answer 429
    env.put("GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE", "1000000");
    env.put("GATEWAY_RATE_LIMITS_AGENT_POLLS_PER_MINUTE", "1000000");
    // bench hosts are silent between scenarios: they must not go offline (and change the catalog) mid-run
    env.put("GATEWAY_FLEET_HEARTBEAT_INTERVAL_SECONDS", "600");
    // the demo agents report this machine's disk, which may be nearly full on a build machine
    env.put("GATEWAY_FLEET_HEALTH_DISK_FREE_MIN_GB", "0");
    env.putAll(settings);
    List<String> args = new ArrayList<>(CONTAINER_JVM);
    args.add(CONTAINER_MEMORY);
    args.addAll(jvmOptions);
    args.addAll(List.of("-jar", jar.toString()));
    return ServerProcess.start("gateway", args, env, work.resolve("gateway.log"), http,
        "/health/ready");
  }
}
