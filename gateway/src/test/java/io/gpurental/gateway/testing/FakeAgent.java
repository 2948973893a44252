package io.gpurental.gateway.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * A host agent played by plain HTTP calls, exactly as docs/agent-protocol.md describes them, so
 * the gateway's side of the protocol is tested without the real agent.
 */
public final class FakeAgent {
  /** A real ed25519 host key and its fingerprint as {@code ssh-keygen -l} prints it. */
  public static final String HOST_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP0KjRDayVtO6VAoBa2m8TbclP1OP/A77OR8m2ZQJXkK";
  public static final String HOST_KEY_FINGERPRINT = "SHA256:NhEb5aC6Vzut3T6zSuZ63tzfQ0aecP0nXdPIIq0fcxQ";
  // HTTP/1.1 like the real agent (Vert.x web client); Java 17's HTTP/2 client fails a stream on GOAWAY
  private static final HttpClient ASYNC = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private TestGateway node;
  private String credential;
  private String hostId;

  private FakeAgent(TestGateway node) {
    this.node = node;
  }

  /**
   * A new site and host, enrolled by a fake agent reporting {@code gpus} GPUs of that nvidia-smi
   * name, one heartbeat, then activated at {@code price} minor units (usd) per GPU-hour.
   */
  public static FakeAgent activeHost(TestGateway node, ApiClient operator, String gpuName, int gpus, long price) {
    FakeAgent agent = enrolledHost(node, operator, gpuName, gpus);
    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate",
        new JsonObject().put("price_per_gpu_hour", new JsonObject().put("amount", price).put("currency", "usd")));
    assertEquals(200, activated.statusCode(), activated.body());
    return agent;
  }

  /** A new site and host, enrolled by a fake agent and one heartbeat in, not activated (no offer). */
  public static FakeAgent enrolledHost(TestGateway node, ApiClient operator, String gpuName, int gpus) {
    FakeAgent agent = enrol(node, createHost(operator).getString("enrollment_token"), gpuName, gpus);
    assertEquals(200, agent.heartbeat().statusCode());
    return agent;
  }

  /** A new site and a host created on it by the operator: the answer, with its enrolment token. */
  public static JsonObject createHost(ApiClient operator) {
    HttpResponse<String> site = operator.post("/api/v1/operator/sites", new JsonObject()
        .put("name", "Site " + UUID.randomUUID()).put("region", "eu-test").put("country", "de"));
    assertEquals(201, site.statusCode(), site.body());
    HttpResponse<String> host = operator.post("/api/v1/operator/hosts", new JsonObject()
        .put("name", "gpu-" + UUID.randomUUID().toString().substring(0, 8))
        .put("site_id", new JsonObject(site.body()).getString("id")).put("public_address", "203.0.113.7"));
    assertEquals(201, host.statusCode(), host.body());
    return new JsonObject(host.body());
  }

  /** Enrols with the token, reporting {@code gpus} GPUs of that nvidia-smi name; asserts 201. */
  public static FakeAgent enrol(TestGateway node, String token, String gpuName, int gpus) {
    FakeAgent agent = new FakeAgent(node);
    HttpResponse<String> enrolled = agent.enrolWith(token, gpuName, gpus);
    assertEquals(201, enrolled.statusCode(), enrolled.body());
    JsonObject body = new JsonObject(enrolled.body());
    agent.credential = body.getString("credential");
    agent.hostId = body.getString("host_id");
    return agent;
  }

  /** Enrols with the token reporting these facts (e.g. {@link #facts} with a runtime); asserts 201. */
  public static FakeAgent enrol(TestGateway node, String token, JsonObject facts) {
    FakeAgent agent = new FakeAgent(node);
    agent.credential = token;
    HttpResponse<String> enrolled = agent.send("POST", "/api/v1/agent/enroll",
        new JsonObject().put("agent_version", "0.2.0").put("facts", facts));
    assertEquals(201, enrolled.statusCode(), enrolled.body());
    JsonObject body = new JsonObject(enrolled.body());
    agent.credential = body.getString("credential");
    agent.hostId = body.getString("host_id");
    return agent;
  }

  /** The enrolment call alone, for tests of refused tokens. */
  public static HttpResponse<String> tryEnrol(TestGateway node, String token, String gpuName, int gpus) {
    return new FakeAgent(node).enrolWith(token, gpuName, gpus);
  }

  public static JsonObject facts(String gpuName, int gpus) {
    JsonArray list = new JsonArray();
    for (int i = 0; i < gpus; i++) {
      list.add(new JsonObject().put("index", i).put("uuid", "GPU-" + i + "-3b6c5a1e-test").put("name", gpuName)
          .put("memory_total_mib", 81559));
    }
    return new JsonObject().put("hostname", "gpu-07").put("cpu_model", "AMD EPYC 9354 32-Core Processor")
        .put("cpu_cores", 64).put("ram_gb", 512).put("disk_gb", 3840).put("net_gbps", 100)
        .put("driver_version", "550.54.15").put("cuda_version", "12.4").put("gpus", list);
  }

  /** The same agent talking to another node of the cluster. */
  public FakeAgent on(TestGateway other) {
    FakeAgent agent = new FakeAgent(other);
    agent.credential = credential;
    agent.hostId = hostId;
    return agent;
  }

  public String hostId() {
    return hostId;
  }

  public String credential() {
    return credential;
  }

  public void useCredential(String secret) {
    credential = secret;
  }

  public HttpResponse<String> heartbeat() {
    return send("POST", "/api/v1/agent/heartbeat", new JsonObject().put("agent_version", "0.1.0")
        .put("sent_at", java.time.Instant.now().toString())
        .put("telemetry", new JsonObject().put("disk_free_gb", 3100.5).put("load_1m", 0.42)));
  }

  /** A heartbeat with this telemetry (docs/agent-protocol.md), e.g. from {@link #gpus}. */
  public HttpResponse<String> heartbeat(JsonObject telemetry) {
    return send("POST", "/api/v1/agent/heartbeat", new JsonObject().put("agent_version", "0.1.0")
        .put("sent_at", java.time.Instant.now().toString()).put("telemetry", telemetry));
  }

  /** Telemetry of a host with {@code disk_free_gb} free and one GPU reading per temperature, all else normal. */
  public static JsonObject telemetry(double diskFreeGb, double... temperatures) {
    JsonArray gpus = new JsonArray();
    for (int i = 0; i < temperatures.length; i++) {
      gpus.add(new JsonObject().put("index", i).put("uuid", "GPU-" + i + "-3b6c5a1e-test")
          .put("temperature_c", temperatures[i]).put("power_draw_w", 300.0).put("utilization_pct", 50)
          .put("memory_used_mib", 1024).put("memory_total_mib", 81559).put("ecc_uncorrected", 0)
          .put("remapped_rows_failure", false));
    }
    return new JsonObject().put("disk_free_gb", diskFreeGb).put("load_1m", 0.42).put("power_w", 1450.0)
        .put("power_source", "measured").put("disk_health", "passed").put("rtt_ms", 3.5).put("gpus", gpus);
  }

  /** The long poll, answered asynchronously. */
  public CompletableFuture<HttpResponse<String>> desiredState(Long afterVersion, int waitSeconds) {
    String query = "?wait_seconds=" + waitSeconds + (afterVersion == null ? "" : "&after_version=" + afterVersion);
    return ASYNC.sendAsync(request("GET", "/api/v1/agent/desired-state" + query, null)
        .timeout(Duration.ofSeconds(waitSeconds + 30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  public JsonObject desiredStateNow() {
    HttpResponse<String> state = desiredState(null, 0).join();
    assertEquals(200, state.statusCode(), state.body());
    return new JsonObject(state.body());
  }

  public HttpResponse<String> report(String instanceId, JsonObject report) {
    return send("PUT", "/api/v1/agent/instances/" + instanceId, report);
  }

  /** A running report with the fixed host key, as the process runtime would send it. */
  public static JsonObject running(String user, int port) {
    return new JsonObject().put("state", "running").put("ssh", new JsonObject().put("host", "203.0.113.7")
        .put("port", port).put("user", user).put("host_key_fingerprint", HOST_KEY_FINGERPRINT).put("host_key", HOST_KEY));
  }

  public HttpResponse<String> send(String method, String path, JsonObject body) {
    return node.send(request(method, path, body));
  }

  private HttpResponse<String> enrolWith(String token, String gpuName, int gpus) {
    credential = token;
    return send("POST", "/api/v1/agent/enroll",
        new JsonObject().put("agent_version", "0.1.0").put("facts", facts(gpuName, gpus)));
  }

  private HttpRequest.Builder request(String method, String path, JsonObject body) {
    return HttpRequest.newBuilder(URI.create(node.url(path))).header("Authorization", "Bearer " + credential)
        .header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.encode()));
  }
}
