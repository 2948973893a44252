package io.gpurental.agent.protocol;

import io.gpurental.agent.facts.GpuReading;
import io.gpurental.agent.facts.HostFacts;
import io.gpurental.agent.facts.Telemetry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's side of docs/agent-protocol.md: four calls, each answering a record or failing with
 * a {@link GatewayException} (or the network's own error). JSON stops here.
 */
public final class GatewayClient {
  private static final long CALL_TIMEOUT_MS = 30_000;

  private final WebClient web;
  private final String base;
  private final String agentVersion;

  public GatewayClient(Vertx vertx, String gatewayUrl, String agentVersion) {
    this.web = WebClient.create(vertx, new WebClientOptions()
        .setUserAgent("gpu-host-agent/" + agentVersion).setConnectTimeout(10_000));
    this.base = gatewayUrl.replaceAll("/+$", "") + "/api/v1/agent";
    this.agentVersion = agentVersion;
  }

  /** Answer of {@code enroll}. */
  public record Enrolment(String hostId, String credential, int heartbeatIntervalSeconds) {
  }

  /** Answer of {@code heartbeat}. */
  public record HeartbeatAnswer(int heartbeatIntervalSeconds, long desiredVersion) {
  }

  /** Facts of the runtime (Fleet III): its kind, the NVIDIA Container Toolkit's and the engine's versions. */
  public record RuntimeFacts(String runtime, String containerToolkitVersion, String engine, JsonObject isolation) {
  }

  /**
   * The container runtime's part of a heartbeat: the image cache, GPUs left dirty by an instance,
   * and the isolation facts when they changed since the gateway last took them (else null).
   */
  public record ContainerState(List<CachedImage> images, List<String> dirtyGpus,
      io.gpurental.agent.runtime.container.Isolation isolation) {
  }

  /** One image of the host's cache. */
  public record CachedImage(String ref, String digest, long sizeBytes, Instant lastUsedAt) {
  }

  public Future<Enrolment> enroll(String enrollmentToken, HostFacts facts) {
    return enroll(enrollmentToken, facts, null);
  }

  public Future<Enrolment> enroll(String enrollmentToken, HostFacts facts, RuntimeFacts runtime) {
    JsonObject factsJson = factsJson(facts);
    if (runtime != null) {
      factsJson.put("runtime", runtime.runtime()).put("container_toolkit_version", runtime.containerToolkitVersion())
          .put("engine", runtime.engine());
      if (runtime.isolation() != null) {
        factsJson.put("container_isolation", runtime.isolation());
      }
    }
    JsonObject body = new JsonObject().put("agent_version", agentVersion).put("facts", factsJson);
    return call("enroll", request(HttpMethod.POST, "/enroll", enrollmentToken).sendJsonObject(body), 201)
        .map(json -> new Enrolment(json.getString("host_id"), json.getString("credential"),
            json.getInteger("heartbeat_interval_seconds", 10)));
  }

  public Future<HeartbeatAnswer> heartbeat(String credential, Telemetry telemetry) {
    return heartbeat(credential, telemetry, null);
  }

  public Future<HeartbeatAnswer> heartbeat(String credential, Telemetry telemetry, ContainerState containers) {
    JsonObject body = new JsonObject().put("agent_version", agentVersion)
        .put("sent_at", Instant.now().toString()).put("telemetry", telemetryJson(telemetry, containers));
    if (containers != null) {
      body.put("images", new JsonArray(containers.images().stream().map(i -> new JsonObject().put("ref", i.ref())
          .put("digest", i.digest()).put("size_bytes", i.sizeBytes())
          .put("last_used_at", i.lastUsedAt() == null ? null : i.lastUsedAt().toString())).toList()));
      if (containers.isolation() != null) {
        body.put("container_isolation", containers.isolation().json());
      }
    }
    return call("heartbeat", request(HttpMethod.POST, "/heartbeat", credential).sendJsonObject(body), 200)
        .map(json -> new HeartbeatAnswer(json.getInteger("heartbeat_interval_seconds", 10),
            json.getLong("desired_version", 0L)));
  }

  /** The long poll: {@code afterVersion} null asks for the current state at once. */
  public Future<DesiredState> desiredState(String credential, Long afterVersion, int waitSeconds) {
    HttpRequest<Buffer> request = request(HttpMethod.GET, "/desired-state", credential)
        .addQueryParam("wait_seconds", Integer.toString(waitSeconds))
        .timeout(CALL_TIMEOUT_MS + waitSeconds * 1000L);
    if (afterVersion != null) {
      request.addQueryParam("after_version", Long.toString(afterVersion));
    }
    return call("desired-state", request.send(), 200).map(GatewayClient::desiredState);
  }

  public Future<Void> report(String credential, String instanceId, InstanceReport report) {
    return call("report " + instanceId,
        request(HttpMethod.PUT, "/instances/" + instanceId, credential).sendJsonObject(reportJson(report)), 204)
        .mapEmpty();
  }

  public void close() {
    web.close();
  }

  private HttpRequest<Buffer> request(HttpMethod method, String path, String bearer) {
    return web.requestAbs(method, base + path).bearerTokenAuthentication(bearer).timeout(CALL_TIMEOUT_MS);
  }

  private static Future<JsonObject> call(String name, Future<HttpResponse<Buffer>> sent, int expected) {
    return sent.compose(response -> {
      if (response.statusCode() != expected) {
        return Future.failedFuture(new GatewayException(name, response.statusCode(), response.bodyAsString()));
      }
      Buffer body = response.body();
      return Future.succeededFuture(body == null || body.length() == 0 ? new JsonObject() : body.toJsonObject());
    });
  }

  static DesiredState desiredState(JsonObject json) {
    List<DesiredInstance> instances = new ArrayList<>();
    for (Object o : json.getJsonArray("instances", new JsonArray())) {
      JsonObject i = (JsonObject) o;
      List<DesiredInstance.Gpu> gpus = new ArrayList<>();
      for (Object g : i.getJsonArray("gpus", new JsonArray())) {
        JsonObject gpu = (JsonObject) g;
        gpus.add(new DesiredInstance.Gpu(gpu.getInteger("index"), gpu.getString("uuid")));
      }
      String endsAt = i.getString("ends_at");
      instances.add(new DesiredInstance(i.getString("id"), i.getString("user"),
          endsAt == null ? null : Instant.parse(endsAt), i.getString("ssh_public_key"), List.copyOf(gpus),
          image(i.getJsonObject("image")), limits(i.getJsonObject("limits"))));
    }
    List<String> prePull = new ArrayList<>();
    json.getJsonArray("pre_pull", new JsonArray()).forEach(ref -> prePull.add(String.valueOf(ref)));
    return new DesiredState(json.getLong("version", 0L), List.copyOf(instances), List.copyOf(prePull),
        json.getLong("image_cache_limit_gb"));
  }

  private static DesiredInstance.Image image(JsonObject json) {
    if (json == null) {
      return null;
    }
    List<Integer> ports = new ArrayList<>();
    json.getJsonArray("ports", new JsonArray()).forEach(p -> ports.add(((Number) p).intValue()));
    return new DesiredInstance.Image(json.getString("ref"), List.copyOf(ports));
  }

  private static DesiredInstance.Limits limits(JsonObject json) {
    if (json == null) {
      return null;
    }
    Number cpus = json.getNumber("cpus");
    return new DesiredInstance.Limits(cpus == null ? null : cpus.doubleValue(), json.getLong("memory_mib"),
        json.getLong("disk_gb"), json.getLong("pids"), json.getLong("shm_mib"));
  }

  static JsonObject factsJson(HostFacts facts) {
    JsonArray gpus = new JsonArray();
    for (GpuReading gpu : facts.gpus()) {
      gpus.add(new JsonObject().put("index", gpu.index()).put("uuid", gpu.uuid()).put("name", gpu.name())
          .put("memory_total_mib", gpu.memoryTotalMib()));
    }
    return new JsonObject().put("hostname", facts.hostname()).put("cpu_model", facts.cpuModel())
        .put("cpu_cores", facts.cpuCores()).put("ram_gb", facts.ramGb()).put("disk_gb", facts.diskGb())
        .put("net_gbps", facts.netGbps()).put("driver_version", facts.driverVersion())
        .put("cuda_version", facts.cudaVersion()).put("gpus", gpus);
  }

  static JsonObject telemetryJson(Telemetry telemetry) {
    return telemetryJson(telemetry, null);
  }

  /**
   * With the container runtime's state: {@code images} in the heartbeat's body (the protocol's
   * place) and, per GPU, {@code leftover_processes: true} for a GPU that still ran a process after
   * its instance was removed (an additive field the gateway may treat as unhealthy).
   */
  static JsonObject telemetryJson(Telemetry telemetry, ContainerState containers) {
    JsonArray gpus = new JsonArray();
    for (GpuReading gpu : telemetry.gpus()) {
      JsonObject g = new JsonObject();
      if (containers != null && containers.dirtyGpus().contains(gpu.uuid())) {
        g.put("leftover_processes", true);
      }
      gpus.add(g.put("index", gpu.index()).put("uuid", gpu.uuid())
          .put("temperature_c", gpu.temperatureC()).put("power_draw_w", gpu.powerDrawW())
          .put("utilization_pct", gpu.utilizationPct()).put("memory_used_mib", gpu.memoryUsedMib())
          .put("memory_total_mib", gpu.memoryTotalMib()).put("ecc_uncorrected", gpu.eccUncorrected())
          .put("remapped_rows_failure", gpu.remappedRowsFailure()));
    }
    return new JsonObject().put("disk_free_gb", telemetry.diskFreeGb()).put("load_1m", telemetry.load1m())
        .put("power_w", telemetry.powerW()).put("power_source", telemetry.powerSource())
        .put("disk_health", telemetry.diskHealth()).put("rtt_ms", telemetry.rttMs())
        .put("gpus", gpus);
  }

  static JsonObject reportJson(InstanceReport report) {
    JsonObject json = new JsonObject().put("state", report.state());
    if (report.ssh() != null) {
      SshEndpoint ssh = report.ssh();
      json.put("ssh", new JsonObject().put("host", ssh.host()).put("port", ssh.port()).put("user", ssh.user())
          .put("host_key_fingerprint", ssh.hostKeyFingerprint()).put("host_key", ssh.hostKey()));
    }
    if (report.reason() != null) {
      json.put("reason", report.reason());
    }
    if (report.pull() != null) {
      json.put("pull", new JsonObject().put("bytes_done", report.pull().bytesDone())
          .put("bytes_total", report.pull().bytesTotal()));
    }
    if (report.ports() != null) {
      json.put("ports", new JsonArray(report.ports().stream().map(p -> new JsonObject()
          .put("container_port", p.containerPort()).put("host_port", p.hostPort())).toList()));
    }
    return json;
  }
}
