package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every host status change is recorded with its time, and uptime is computed from that history:
 * uptime = 1 − down time ÷ (period − planned maintenance), only over time the host was in service.
 */
// offline after 5 s of silence, not 2: a stall between the heartbeat and the deactivation must not
// mark the host offline a second time and add a move to the exact history
@GatewayTest(settings = {"GATEWAY_FLEET_HEARTBEAT_INTERVAL_SECONDS=1", "GATEWAY_FLEET_OFFLINE_AFTER_MISSED=5"})
class UptimeTest {
  @Test
  void everyStatusMoveIsRecordedWhicheverPathMadeIt(TestGateway node, @SignedIn("operator") ApiClient operator) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String host = agent.hostId();
    eventually("offline once heartbeats stop (the sweep, not the lifecycle's MOVE)",
        () -> operator.json("/api/v1/operator/hosts/" + host).getString("status"), "offline"::equals);
    assertEquals(200, agent.heartbeat().statusCode());
    assertEquals(200, operator.post("/api/v1/operator/hosts/" + host + "/deactivate", null).statusCode());

    List<String> moves = new ArrayList<>();
    node.sql("SELECT coalesce(from_status, '-') || '>' || to_status FROM host_status_history"
        + " WHERE host_id = '" + host + "' ORDER BY at, id")
        .forEach(row -> moves.add(row.getString(0)));
    assertEquals(List.of("->enrolling", "enrolling>pending", "pending>active", "active>offline", "offline>active",
        "active>deactivated"), moves);
    assertEquals(1L, node.sql("SELECT count(*) FROM host_status_history h JOIN hosts s ON s.id = h.host_id"
        + " WHERE h.host_id = '" + host + "' AND h.at = s.status_changed_at AND h.to_status = s.status")
        .iterator().next().getLong(0), "the latest row is the host's current status, at the same time");
  }

  /**
   * A fixed 40-day history (times relative to now, so the windows 24 h / 7 d / 30 d hold it whole):
   *
   * <pre>
   *   now-40d        active                 (first activation: before the 30-day window)
   *   now-20d        deactivated for 10 h   (not in service: out of the period)
   *   now-20d+10h    active
   *   now-10d        maintenance window of 5 h, now-10d .. now-10d+5h
   *   now-10d+1h     offline for 2 h, inside the window (planned: not down)
   *   now-10d+3h     active
   *   now-50h        offline for 3 h        (unplanned: down)
   *   now-47h        active
   * </pre>
   *
   * 30 d: period 720 h − 10 h deactivated = 710 h in service; − 5 h maintenance = 705 h counted;
   * down 3 h (the 2 h offline during maintenance are not down): uptime = 1 − 3/705 = 0.995744….
   * 7 d: 168 h counted, 3 h down: 1 − 3/168. 24 h: nothing down: 1. Maintenance hours (30 d): 5.
   * A second host, active for 12 h with 1 h offline 3 h ago: 24 h = 1 − 1/12 (time before its
   * first activation does not count), and the same over 7 d and 30 d. A pending host: null.
   */
  @Test
  void uptimeOnAFixedHistoryMatchesTheHandComputedFigures(TestGateway node, @SignedIn("operator") ApiClient operator) {
    String host = testHost(node, "uptime-a");
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS); // one anchor: every length below is exact
    history(node, host, now, 960, "active", 480, "deactivated", 470, "active", 239, "offline", 237, "active",
        50, "offline", 47, "active");
    node.sql("INSERT INTO maintenance_windows (id, host_id, starts_at, ends_at, reason, created_by, cancelled_at) VALUES"
        + " ('mnt_test_a', '" + host + "', '" + ago(now, 240) + "', '" + ago(now, 235) + "', 'firmware', 'test', NULL),"
        + " ('mnt_test_cancelled', '" + host + "', '" + ago(now, 120) + "', '" + ago(now, 96) + "', 'never happened',"
        + " 'test', '" + ago(now, 144) + "')");

    JsonObject uptime = operator.json("/api/v1/operator/hosts/" + host).getJsonObject("uptime");
    assertEquals(1 - 3.0 / 705, uptime.getDouble("30d"), uptime.encode());
    assertEquals(1 - 3.0 / 168, uptime.getDouble("7d"), uptime.encode());
    assertEquals(1.0, uptime.getDouble("24h"), uptime.encode());
    assertEquals(5.0, uptime.getDouble("maintenance_hours_30d"), uptime.encode());
    assertEquals(3.0, uptime.getDouble("down_hours_30d"), uptime.encode());

    JsonObject offer = new JsonObject(node.get("/api/v1/offers/off_" + host).body());
    assertEquals(1 - 3.0 / 705, offer.getDouble("uptime_30d"), "published on the offer: " + offer.encode());
    assertEquals(uptime.getDouble("7d"), offer.getJsonObject("uptime").getDouble("7d"));

    String young = testHost(node, "uptime-b");
    history(node, young, now, 12, "active", 3, "offline", 2, "active");
    JsonObject youngUptime = operator.json("/api/v1/operator/hosts/" + young).getJsonObject("uptime");
    for (String period : List.of("24h", "7d", "30d")) {
      // its service time runs to the moment of reading, seconds after the anchor: 1e-4 is ~50 s of that
      assertEquals(1 - 1.0 / 12, youngUptime.getDouble(period), 1e-4, period + ": only time since activation counts");
    }

    String pending = testHost(node, "uptime-c");
    history(node, pending, now, 72, "pending");
    JsonObject none = operator.json("/api/v1/operator/hosts/" + pending).getJsonObject("uptime");
    assertNull(none.getValue("30d"), "never in service: no uptime, " + none.encode());
    assertNull(none.getValue("24h"));
  }

  /** A host with one GPU and an offer at its own price, whose status history the test writes. */
  private static String testHost(TestGateway node, String name) {
    String host = "host_test_" + name.replace('-', '_');
    node.sql("INSERT INTO hosts (id, site_id, name, status, cpu_model, cpu_cores, ram_gb, nvme_gb, net_gbps,"
        + " interconnect) VALUES ('" + host + "', 'site_fra1', '" + name + "', 'active', 'AMD EPYC 9454', 16, 128,"
        + " 1000, 25, 'PCIe')");
    node.sql("INSERT INTO gpus (id, host_id, idx, model, vram_gb) VALUES ('" + host + "_gpu0', '" + host
        + "', 0, 'L40S', 48)");
    node.sql("INSERT INTO offers (id, host_id, gpu_counts, cpu_cores_per_gpu, ram_gb_per_gpu, nvme_gb_per_gpu)"
        + " VALUES ('off_" + host + "', '" + host + "', '{1}', 16, 128, 1000)");
    node.sql("INSERT INTO prices (offer_id, amount_per_gpu_hour, currency, effective_from, set_by)"
        + " VALUES ('off_" + host + "', 90, 'usd', now() - interval '1 minute', 'test')");
    node.sql("DELETE FROM host_status_history WHERE host_id = '" + host + "'"); // the row its INSERT made
    return host;
  }

  /** The host's history: pairs of (hours before {@code now}, the status it became then). */
  private static void history(TestGateway node, String host, Instant now, Object... moves) {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < moves.length; i += 2) {
      rows.add("('" + host + "', '" + ago(now, (Integer) moves[i]) + "', '" + moves[i + 1] + "')");
    }
    node.sql("INSERT INTO host_status_history (host_id, at, to_status) VALUES " + String.join(", ", rows));
  }

  private static Instant ago(Instant now, int hours) {
    return now.minus(hours, ChronoUnit.HOURS);
  }
}
