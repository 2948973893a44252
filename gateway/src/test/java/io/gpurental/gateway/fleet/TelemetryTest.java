package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Heartbeat telemetry: stored as samples, refused whole when malformed, rolled up into hours
 * with hand-computed figures (a rerun changes nothing), pruned by age, and answered as series.
 */
@GatewayTest
class TelemetryTest {
  /** Hour H (three hours ago) and H+1 get these samples; a sample holds until the next, for at most 30 s. */
  private static final String THREE_HOURS_AGO = "date_trunc('hour', now()) - interval '3 hours'";

  @Test
  void heartbeatsAreStoredAndMalformedTelemetryIsRefusedNamingTheField(TestGateway node,
      @SignedIn("operator") ApiClient operator) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    assertEquals(200, agent.heartbeat(FakeAgent.telemetry(3000, 41, 42)).statusCode());
    Row host = node.sql("SELECT * FROM host_samples WHERE host_id = '" + agent.hostId() + "' AND power_w IS NOT NULL")
        .iterator().next();
    assertEquals(1450.0, host.getDouble("power_w"));
    assertEquals("measured", host.getString("power_source"));
    assertEquals("passed", host.getString("disk_health"));
    assertEquals(3.5, host.getDouble("rtt_ms"));
    assertEquals(2, count(node, "gpu_samples WHERE host_id = '" + agent.hostId() + "'"));
    JsonObject json = operator.json("/api/v1/operator/hosts/" + agent.hostId());
    assertEquals(1450.0, json.getJsonObject("telemetry").getDouble("power_w"));
    JsonObject gpu = json.getJsonArray("gpus").getJsonObject(1);
    assertEquals(42.0, gpu.getJsonObject("telemetry").getDouble("temperature_c"));
    assertEquals("healthy", gpu.getJsonObject("health").getString("status"));
    assertEquals(200, agent.heartbeat().statusCode(), "an agent without the new fields is fine");

    // this host's only: the demo fleet's heartbeats keep adding samples of their own
    long before = count(node, "host_samples WHERE host_id = '" + agent.hostId() + "'");
    JsonObject hot = FakeAgent.telemetry(3000, 41, 42);
    hot.getJsonArray("gpus").getJsonObject(1).put("temperature_c", "hot");
    problem(agent.heartbeat(hot), "/telemetry/gpus/1/temperature_c");
    problem(agent.heartbeat(FakeAgent.telemetry(3000, 41).put("power_source", "guessed")), "/telemetry/power_source");
    problem(agent.heartbeat(FakeAgent.telemetry(3000, 41).put("disk_free_gb", true)), "/telemetry/disk_free_gb");
    JsonObject twice = FakeAgent.telemetry(3000, 41, 42);
    twice.getJsonArray("gpus").getJsonObject(1).put("index", 0);
    problem(agent.heartbeat(twice), "/telemetry/gpus/1/index");
    // the host has GPUs 0-3
    JsonObject phantom = FakeAgent.telemetry(3000, 41, 42, 43, 44, 45);
    problem(agent.heartbeat(phantom), "/telemetry/gpus/4/index");
    assertEquals(0, count(node, "gpu_samples WHERE host_id = '" + agent.hostId() + "' AND gpu_index = 4"),
        "no samples of a GPU the host does not have");
    assertEquals(before, count(node, "host_samples WHERE host_id = '" + agent.hostId() + "'"),
        "a refused heartbeat stores nothing");
  }

  @Test
  void completedHoursRollUpToHandComputedFiguresAndOldRowsArePruned(TestGateway node,
      @SignedIn("operator") ApiClient operator) {
    String host = FakeAgent.enrol(node, HostEnrolmentTest.createHost(operator).getString("enrollment_token"),
        "NVIDIA H100 80GB HBM3", 1).hostId();
    // read once: now() in each statement would move H if the hour turned during the test
    Instant hour = node.sql("SELECT " + THREE_HOURS_AGO).iterator().next().getOffsetDateTime(0).toInstant();
    String h = "'" + hour + "'::timestamptz";
    // offset, host power, source, disk free, rtt, GPU temperature, power, utilization
    node.sql("INSERT INTO host_samples (host_id, at, power_w, power_source, disk_free_gb, rtt_ms) SELECT '" + host
        + "', " + h + " + v.o * interval '1 second', v.p, v.s, v.d, v.r FROM (VALUES"
        + " (0, 1000, 'measured', 100, 1), (10, 1200, 'measured', 90, 2), (20, 1400, 'estimated', 80, 3),"
        + " (3590, 1600, 'measured', 70, 4), (3610, 2000, 'measured', 60, 5)) AS v (o, p, s, d, r)");
    node.sql("INSERT INTO gpu_samples (host_id, gpu_index, at, temperature_c, power_draw_w, utilization_pct) SELECT '"
        + host + "', 0, " + h + " + v.o * interval '1 second', v.t, v.p, v.u FROM (VALUES"
        + " (0, 40, 100, 10), (10, 50, 200, 30), (20, 90, 300, 50), (3590, 60, 400, 90), (3610, 70, 500, 100))"
        + " AS v (o, t, p, u)");
    node.sql("INSERT INTO host_samples (host_id, at) VALUES ('" + host + "', now() - interval '49 hours'),"
        + " ('" + host + "', now() - interval '47 hours')");
    node.sql("INSERT INTO gpu_samples (host_id, gpu_index, at) VALUES ('" + host + "', 0, now() - interval '49 hours'),"
        + " ('" + host + "', 0, now() - interval '47 hours')");
    for (String table : List.of("host_telemetry_hourly (host_id, hour, samples, measured_samples, covered_seconds)",
        "gpu_telemetry_hourly (host_id, gpu_index, hour, samples, covered_seconds)")) {
      String gpu = table.startsWith("gpu") ? "0, " : "";
      String measured = table.startsWith("host") ? "0, " : "";
      node.sql("INSERT INTO " + table + " VALUES ('" + host + "', " + gpu + "date_trunc('hour', now() - interval '401 days'), 1, "
          + measured + "10), ('" + host + "', " + gpu + "date_trunc('hour', now() - interval '399 days'), 1, " + measured + "10)");
    }

    runRollup(node);
    List<String> hostHours = rows(node, "SELECT samples, measured_samples, covered_seconds, round(power_w_avg::numeric, 3),"
        + " round(energy_wh::numeric, 4), disk_free_gb_min, rtt_ms_avg FROM host_telemetry_hourly WHERE host_id = '" + host
        + "' AND hour >= " + h + " ORDER BY hour");
    assertEquals(List.of("4|3|60.0|1333.333|22.2222|70.0|2.5", "1|1|10.0|1600.000|4.4444|60.0|5.0"), hostHours);
    List<String> gpuHours = rows(node, "SELECT samples, covered_seconds, temperature_min_c, temperature_avg_c,"
        + " temperature_max_c, round(power_draw_w_avg::numeric, 3), round(energy_wh::numeric, 4), utilization_avg_pct"
        + " FROM gpu_telemetry_hourly WHERE host_id = '" + host + "' AND hour >= " + h + " ORDER BY hour");
    assertEquals(List.of("4|60.0|40.0|60.0|90.0|266.667|4.4444|45.0", "1|10.0|70.0|70.0|70.0|400.000|1.1111|100.0"),
        gpuHours);
    assertEquals(List.of("22.2222|60.0", "4.4444|10.0"), rows(node, "SELECT round(energy_wh::numeric, 4), covered_seconds"
        + " FROM host_energy_hourly_view WHERE host_id = '" + host + "' AND hour >= " + h + " ORDER BY hour"));

    runRollup(node);
    assertEquals(hostHours, rows(node, "SELECT samples, measured_samples, covered_seconds, round(power_w_avg::numeric, 3),"
        + " round(energy_wh::numeric, 4), disk_free_gb_min, rtt_ms_avg FROM host_telemetry_hourly WHERE host_id = '" + host
        + "' AND hour >= " + h + " ORDER BY hour"), "a rerun changes nothing");
    // a run that missed the last hour (as if the job had been down) writes it again, the same
    node.sql("DELETE FROM host_telemetry_hourly WHERE hour = " + h + " + interval '1 hour'");
    node.sql("DELETE FROM gpu_telemetry_hourly WHERE hour = " + h + " + interval '1 hour'");
    runRollup(node);
    assertEquals(gpuHours, rows(node, "SELECT samples, covered_seconds, temperature_min_c, temperature_avg_c,"
        + " temperature_max_c, round(power_draw_w_avg::numeric, 3), round(energy_wh::numeric, 4), utilization_avg_pct"
        + " FROM gpu_telemetry_hourly WHERE host_id = '" + host + "' AND hour >= " + h + " ORDER BY hour"));
    assertEquals(hostHours.get(1), rows(node, "SELECT samples, measured_samples, covered_seconds,"
        + " round(power_w_avg::numeric, 3), round(energy_wh::numeric, 4), disk_free_gb_min, rtt_ms_avg"
        + " FROM host_telemetry_hourly WHERE host_id = '" + host + "' AND hour >= " + h + " ORDER BY hour").get(1));
    assertEquals(6, count(node, "host_samples WHERE host_id = '" + host + "'"), "only the 49 h old sample is gone");
    assertEquals(6, count(node, "gpu_samples WHERE host_id = '" + host + "'"));
    assertEquals(0, count(node, "host_samples WHERE at < now() - interval '48 hours'"));
    assertEquals(3, count(node, "host_telemetry_hourly WHERE host_id = '" + host + "'"), "the 401 day old hour is gone");
    assertEquals(1, count(node, "gpu_telemetry_hourly WHERE host_id = '" + host + "' AND hour < now() - interval '300 days'"));

    series(node, operator, host, hour);
  }

  /** Raw samples for a short range, hourly roll-ups for a long one; bad ranges are 400. */
  private static void series(TestGateway node, ApiClient operator, String host, Instant h) {
    JsonObject raw = operator.json(telemetryPath(host, h, h.plus(2, ChronoUnit.HOURS)));
    assertEquals("raw", raw.getString("resolution"));
    assertEquals(10, raw.getInteger("bucket_seconds"));
    JsonArray points = raw.getJsonArray("gpus").getJsonObject(0).getJsonArray("points");
    assertEquals(5, points.size(), points.encode());
    assertEquals(90.0, points.getJsonObject(2).getDouble("temperature_c"));
    assertEquals(5, raw.getJsonArray("host").size());
    JsonObject hourly = operator.json(telemetryPath(host, Instant.now().minus(10, ChronoUnit.DAYS), Instant.now()));
    assertEquals("hour", hourly.getString("resolution"));
    assertEquals(3600, hourly.getInteger("bucket_seconds"));
    JsonArray hours = hourly.getJsonArray("gpus").getJsonObject(0).getJsonArray("points");
    assertEquals(2, hours.size(), hours.encode());
    assertEquals(60.0, hours.getJsonObject(0).getDouble("temperature_c"));
    assertEquals(90.0, hours.getJsonObject(0).getDouble("temperature_max_c"));
    assertTrue(hourly.getJsonArray("host").getJsonObject(0).getDouble("power_w") > 1333);

    problem(operator.get(telemetryPath(host, h, h)), "/from");
    problem(operator.get(telemetryPath(host, Instant.now().minus(401, ChronoUnit.DAYS), Instant.now())), "/from");
    assertEquals(400, operator.get("/api/v1/operator/hosts/" + host + "/telemetry?from=yesterday").statusCode());
    assertEquals(404, operator.get("/api/v1/operator/hosts/host_nosuchhost/telemetry").statusCode());
  }

  private static String telemetryPath(String host, Instant from, Instant to) {
    return "/api/v1/operator/hosts/" + host + "/telemetry?from=" + URLEncoder.encode(from.toString(),
        StandardCharsets.UTF_8) + "&to=" + URLEncoder.encode(to.toString(), StandardCharsets.UTF_8);
  }

  private static void runRollup(TestGateway node) {
    TestGateway.await(node.gateway().jobs().runNow(FleetFeature.TELEMETRY_ROLLUP));
  }

  private static void problem(HttpResponse<String> answer, String pointer) {
    assertEquals(400, answer.statusCode(), answer.body());
    assertTrue(answer.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
    assertTrue(answer.body().contains(pointer), answer.body());
  }

  private static long count(TestGateway node, String from) {
    return node.sql("SELECT count(*) FROM " + from).iterator().next().getLong(0);
  }

  private static List<String> rows(TestGateway node, String query) {
    List<String> rows = new ArrayList<>();
    node.sql(query).forEach(row -> {
      List<String> cells = new ArrayList<>();
      for (int i = 0; i < row.size(); i++) {
        cells.add(String.valueOf(row.getValue(i)));
      }
      rows.add(String.join("|", cells));
    });
    return rows;
  }
}
