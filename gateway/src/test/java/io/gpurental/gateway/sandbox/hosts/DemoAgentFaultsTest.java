package io.gpurental.gateway.sandbox.hosts;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo hosts' fault controls change what the gateway receives through the real agent
 * protocol: the stored heartbeat's telemetry, the host's status from missing heartbeats, and the
 * instance reports that fail or delay a paid reservation. Each test uses its own demo host.
 */
@GatewayTest(settings = {
    "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200",
    "GATEWAY_RESERVATIONS_SANDBOX_INSTANCE_READY_MS=300",
    "GATEWAY_FLEET_HEARTBEAT_INTERVAL_SECONDS=1",
    "GATEWAY_FLEET_OFFLINE_AFTER_MISSED=3"})
class DemoAgentFaultsTest {

  @Test
  void telemetryFaultsArriveInTheStoredHeartbeatAndResetHealsThem(TestGateway node) {
    String host = "host_nyc_h200_01";
    JsonObject healthy = telemetryOf(node, host);
    assertEquals("measured", healthy.getString("power_source"), "read from the simulated BMC");
    double gpuPower = healthy.getJsonArray("gpus").stream().mapToDouble(g -> ((JsonObject) g).getDouble("power_draw_w")).sum();
    assertEquals((150 + gpuPower) / 0.94, healthy.getDouble("power_w"), 0.2, "GPUs and base load at the wall");
    assertEquals("passed", healthy.getString("disk_health"));
    eventually("a heartbeat with the previous round trip", () -> telemetryOf(node, host).getValue("rtt_ms"),
        rtt -> rtt instanceof Number n && n.longValue() >= 0);
    assertEquals(uuidsOf(node, host), healthy.getJsonArray("gpus").stream()
        .map(g -> ((JsonObject) g).getString("uuid")).toList(), "the GPUs the fleet seeded, by index");

    HttpResponse<String> set = faults(node, "POST", host, new JsonObject()
        .put("gpus", new JsonArray().add(new JsonObject().put("index", 3).put("temperature_c", 97))
            .add(new JsonObject().put("index", 5).put("ecc_uncorrected", 4).put("remapped_rows_failure", true)))
        .put("disk_free_gb", 3.5).put("disk_health", "failed"));
    assertEquals(200, set.statusCode(), set.body());
    assertEquals(97L, new JsonObject(set.body()).getJsonArray("gpus").getJsonObject(0).getLong("temperature_c"));

    JsonObject faulty = eventually("the faults in the stored heartbeat", () -> telemetryOf(node, host),
        t -> t.getDouble("disk_free_gb") == 3.5);
    assertEquals(97L, gpu(faulty, 3).getLong("temperature_c"), "overheated");
    assertEquals(4L, gpu(faulty, 5).getLong("ecc_uncorrected"));
    assertEquals(true, gpu(faulty, 5).getBoolean("remapped_rows_failure"));
    assertEquals(0L, gpu(faulty, 4).getLong("ecc_uncorrected"), "only GPU 5");
    assertEquals("failed", faulty.getString("disk_health"));

    assertEquals(200, faults(node, "DELETE", host, null).statusCode());
    JsonObject healed = eventually("healthy again", () -> telemetryOf(node, host), t -> t.getDouble("disk_free_gb") > 1000);
    assertTrue(gpu(healed, 3).getLong("temperature_c") < 60, healed.encode());
    assertEquals(0L, gpu(healed, 5).getLong("ecc_uncorrected"));
    assertEquals(false, gpu(healed, 5).getBoolean("remapped_rows_failure"));
    assertEquals("passed", healed.getString("disk_health"));
  }

  @Test
  void aHostThatStopsHeartbeatingGoesOfflineAndComesBackWhenItResumes(TestGateway node) {
    String host = "host_fra_l40s_01";
    eventually("active", () -> status(node, host), "active"::equals);
    assertEquals(200, faults(node, "POST", host, new JsonObject().put("heartbeats", "stopped")).statusCode());
    eventually("offline once its heartbeats stop", () -> status(node, host), "offline"::equals);
    assertEquals("stopped", new JsonObject(faults(node, "GET", host, null).body()).getString("heartbeats"));
    assertEquals(200, faults(node, "POST", host, new JsonObject().put("heartbeats", "running")).statusCode());
    eventually("active with its next heartbeat", () -> status(node, host), "active"::equals);
  }

  @Test
  void failedProvisioningFailsTheNextPaidReservationWithTheReason(TestGateway node) {
    String host = "host_osl_4090_01";
    HttpResponse<String> set = faults(node, "POST", host, new JsonObject()
        .put("fail_provisioning", new JsonObject().put("reason", "gpu_unavailable")));
    assertEquals(200, set.statusCode(), set.body());
    ApiClient renter = ApiClient.signIn(node, "fay");
    renter.saveCard("4242424242424242");

    String id = renter.reserve("off_osl_4090_01", 1, null, 2, "saved_card").getString("id");
    JsonObject failed = renter.await(id, r -> "failed".equals(r.getString("status")), "failed");
    assertTrue(failed.getJsonArray("events").stream().anyMatch(e -> ((JsonObject) e).getString("cause", "")
        .contains("gpu_unavailable")), failed.encode());
    Row instance = node.sql("SELECT state, reason FROM instances WHERE reservation_id = '" + id + "'").iterator().next();
    assertEquals(List.of("failed", "gpu_unavailable"), List.of(instance.getString(0), instance.getString(1)));
    assertEquals(null, new JsonObject(faults(node, "GET", host, null).body()).getValue("fail_provisioning"), "used up");

    String next = renter.reserve("off_osl_4090_01", 1, null, 2, "saved_card").getString("id");
    renter.awaitStatus(next, "running");
    assertEquals(200, faults(node, "DELETE", host, null).statusCode());
  }

  @Test
  void heldProvisioningStaysProvisioningUntilReleasedAndADelayDelaysRunning(TestGateway node) {
    String host = "host_osl_5090_01";
    assertEquals(200, faults(node, "POST", host, new JsonObject().put("provisioning_held", true)).statusCode());
    ApiClient renter = ApiClient.signIn(node, "gus");
    renter.saveCard("4242424242424242");
    String held = renter.reserve("off_osl_5090_01", 1, null, 1, "saved_card").getString("id");
    eventually("the agent has it", () -> instanceState(node, held), "preparing"::equals);
    OffsetDateTime last = lastHeartbeat(node, host);
    eventually("two more heartbeats, far beyond the usual 0.3 s to running",
        () -> lastHeartbeat(node, host).isAfter(last.plusSeconds(1)), Boolean::booleanValue);
    assertEquals("provisioning", renter.json("/api/v1/reservations/" + held).getString("status"));
    assertEquals("preparing", instanceState(node, held));

    assertEquals(200, faults(node, "POST", host, new JsonObject().put("provisioning_held", false)
        .put("provisioning_delay_ms", 2500)).statusCode());
    renter.awaitStatus(held, "running");

    String delayed = renter.reserve("off_osl_5090_01", 1, null, 1, "saved_card").getString("id");
    JsonObject running = renter.awaitStatus(delayed, "running");
    Duration took = Duration.between(eventAt(running, "provisioning"), eventAt(running, "running"));
    assertTrue(took.toMillis() >= 2500, "running only after the delay: " + took);
    assertEquals(200, faults(node, "DELETE", host, null).statusCode());
  }

  @Test
  void mistakesAreClearProblems(TestGateway node) {
    String host = "host_nyc_h100_01";
    HttpResponse<String> wrong = faults(node, "POST", host, new JsonObject().put("heartbeat", "stopped")
        .put("gpus", new JsonArray().add(new JsonObject().put("index", 8).put("temperature_c", "hot")))
        .put("fail_provisioning", new JsonObject().put("reason", "bad_luck").put("count", 0))
        .put("disk_free_gb", -1).put("provisioning_held", "yes"));
    assertEquals(400, wrong.statusCode(), wrong.body());
    assertEquals("application/problem+json", wrong.headers().firstValue("Content-Type").orElse(""));
    List<String> pointers = new ArrayList<>();
    new JsonObject(wrong.body()).getJsonArray("errors").forEach(e -> pointers.add(((JsonObject) e).getString("pointer")));
    assertEquals(List.of("#/heartbeat", "#/disk_free_gb", "#/provisioning_held", "#/fail_provisioning/reason",
        "#/fail_provisioning/count", "#/gpus/0/index", "#/gpus/0/temperature_c"), pointers);
    assertEquals(400, send(node, "POST", host, "{not json", true).statusCode());
    assertEquals(400, send(node, "POST", host, "[1]", true).statusCode());
    assertEquals(404, faults(node, "POST", "host_nope", new JsonObject()).statusCode());
    assertEquals(401, send(node, "POST", host, "{}", false).statusCode());
    assertEquals(401, send(node, "DELETE", host, null, false).statusCode());
    assertEquals(true, new JsonObject(faults(node, "GET", host, null).body()).getBoolean("healthy"), "nothing applied");
  }

  private static JsonObject gpu(JsonObject telemetry, int index) {
    return telemetry.getJsonArray("gpus").stream().map(g -> (JsonObject) g)
        .filter(g -> g.getInteger("index") == index).findFirst().orElseThrow();
  }

  private static JsonObject telemetryOf(TestGateway node, String host) {
    return eventually("a heartbeat of " + host, () -> node.sql("SELECT telemetry FROM host_heartbeats WHERE host_id = '"
        + host + "'"), rows -> rows.size() == 1).iterator().next().getJsonObject(0);
  }

  private static OffsetDateTime lastHeartbeat(TestGateway node, String host) {
    return node.sql("SELECT last_at FROM host_heartbeats WHERE host_id = '" + host + "'").iterator().next()
        .getOffsetDateTime(0);
  }

  private static List<String> uuidsOf(TestGateway node, String host) {
    List<String> uuids = new ArrayList<>();
    node.sql("SELECT uuid FROM gpus WHERE host_id = '" + host + "' ORDER BY idx").forEach(r -> uuids.add(r.getString(0)));
    return uuids;
  }

  private static String status(TestGateway node, String host) {
    return node.sql("SELECT status FROM hosts WHERE id = '" + host + "'").iterator().next().getString(0);
  }

  private static String instanceState(TestGateway node, String reservationId) {
    var rows = node.sql("SELECT state FROM instances WHERE reservation_id = '" + reservationId + "'");
    return rows.size() == 0 ? null : rows.iterator().next().getString(0);
  }

  private static java.time.Instant eventAt(JsonObject reservation, String to) {
    return reservation.getJsonArray("events").stream().map(e -> (JsonObject) e).filter(e -> to.equals(e.getString("to")))
        .map(e -> java.time.Instant.parse(e.getString("at"))).findFirst().orElseThrow();
  }

  static HttpResponse<String> faults(TestGateway node, String method, String host, JsonObject body) {
    return send(node, method, host, body == null ? null : body.encode(), true);
  }

  private static HttpResponse<String> send(TestGateway node, String method, String host, String body, boolean authorised) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url("/sandbox/hosts/_test/hosts/" + host + "/faults")))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/json");
    if (authorised) {
      request.header("Authorization", "Bearer " + node.gateway().sandboxFaultControlKey());
    }
    return node.send(request);
  }
}
