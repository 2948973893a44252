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

  public Future<Enrolment> enroll(String enrollmentToken, HostFacts facts) {
    JsonObject body = new JsonObject().put("agent_version", agentVersion).put("facts", factsJson(facts));
    return call("enroll", request(HttpMethod.POST, "/enroll", enrollmentToken).sendJsonObject(body), 201)
        .map(json -> new Enrolment(json.getString("host_id"), json.getString("credential"),
            json.getInteger("heartbeat_interval_seconds", 10)));
  }

  public Future<HeartbeatAnswer> heartbeat(String credential, Telemetry telemetry) {
    JsonObject body = new JsonObject().put("agent_version", agentVersion)
        .put("sent_at", Instant.now().toString()).put("telemetry", telemetryJson(telemetry));
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
          endsAt == null ? null : Instant.parse(endsAt), i.getString("ssh_public_key"), List.copyOf(gpus)));
    }
    return new DesiredState(json.getLong("version", 0L), List.copyOf(instances));
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
    JsonArray gpus = new JsonArray();
    for (GpuReading gpu : telemetry.gpus()) {
      gpus.add(new JsonObject().put("index", gpu.index()).put("uuid", gpu.uuid())
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
    return json;
  }
}
