package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.platform.ApiContract;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.validation.RequestValidator;
import io.vertx.openapi.validation.impl.RequestParameterImpl;
import io.vertx.openapi.validation.impl.ValidatableRequestImpl;
import java.math.BigInteger;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The heartbeat's quick check against the contract's own validator: it may prove valid only what
 * {@code sendHeartbeat}'s schema accepts (anything else goes to the validator, which answers), and
 * it must prove the bodies agents send, or it saves nothing.
 */
class HeartbeatBodyTest {
  private static final List<Object> VALUES = Arrays.asList(null, true, false, "", "x", "measured", "estimated",
      "passed", "failed", "2026-12-02T08:00:00Z", "2026-12-02T08:00:00.123456789Z", "2026-13-45T99:00:00Z",
      "2026-02-30T10:00:00Z", "2026-12-31T23:59:60Z", "2026-12-02T24:00:00Z", "2026-12-02T08:00:00+01:00",
      "2026-12-02 08:00:00Z", "0000-01-01T00:00:00Z", 0, -1, 1, 1.5, -0.5, 1.0, 100, 101, 300,
      301, -100, -101, 1023, 1024, Long.MAX_VALUE, new BigInteger("123456789012345678901234567890"), 1e300,
      new JsonObject(), new JsonArray(), new JsonObject().put("ref", "x"));
  private static Vertx vertx;
  private static RequestValidator validator;

  @BeforeAll
  static void contract() {
    vertx = Vertx.vertx();
    validator = RequestValidator.create(vertx,
        ApiContract.load(vertx, URI.create("http://127.0.0.1:8080")).await().contract());
  }

  @AfterAll
  static void close() {
    vertx.close().await();
  }

  @Test
  void theBodiesAgentsSendAreProvenValid() {
    for (JsonObject body : List.of(benchHeartbeat(), agentHeartbeat(), minimal())) {
      assertTrue(valid(body), body.encode());
      assertTrue(proven(body), body.encode());
    }
  }

  @Test
  void provesNothingTheContractRefuses() {
    int refused = 0;
    int proven = 0;
    List<JsonObject> bodies = mutations(agentHeartbeat());
    for (JsonObject body : bodies) {
      boolean valid = valid(body);
      if (proven(body)) {
        proven++;
        assertTrue(valid, "proven valid but the contract refuses: " + body.encode());
      }
      if (!valid) {
        refused++;
      }
    }
    // the mutations reach both sides, so the assertion above is not vacuous
    assertTrue(refused > 100, "refused " + refused + " of " + bodies.size());
    assertTrue(proven > 100, "proven " + proven + " of " + bodies.size());
  }

  @Test
  void limitsAreTheContracts() {
    JsonObject many = minimal().put("telemetry", new JsonObject().put("gpus", gpus(65)));
    assertFalse(valid(many));
    assertFalse(proven(many));
    JsonObject most = minimal().put("telemetry", new JsonObject().put("gpus", gpus(64)));
    assertTrue(proven(most));
    assertFalse(proven(minimal().put("agent_version", "v".repeat(65))));
    assertTrue(proven(minimal().put("agent_version", "v".repeat(64))));
    assertEquals(valid(minimal().put("extra", 1)), proven(minimal().put("extra", 1)));
  }

  /** Every field of every level replaced by each value, removed, and an unknown field added beside it. */
  private static List<JsonObject> mutations(JsonObject base) {
    List<JsonObject> out = new ArrayList<>();
    List<List<Object>> paths = new ArrayList<>();
    collect(base, new ArrayList<>(), paths);
    for (List<Object> path : paths) {
      for (Object value : VALUES) {
        out.add(with(base, path, value, false));
      }
      out.add(with(base, path, null, true));
    }
    return out;
  }

  private static void collect(Object node, List<Object> path, List<List<Object>> paths) {
    if (node instanceof JsonObject object) {
      for (String key : object.fieldNames()) {
        List<Object> next = new ArrayList<>(path);
        next.add(key);
        paths.add(next);
        collect(object.getValue(key), next, paths);
      }
      List<Object> unknown = new ArrayList<>(path);
      unknown.add("unknown_field");
      paths.add(unknown);
    } else if (node instanceof JsonArray array && !array.isEmpty()) {
      List<Object> next = new ArrayList<>(path);
      next.add(0);
      paths.add(next);
      collect(array.getValue(0), next, paths);
    }
  }

  private static JsonObject with(JsonObject base, List<Object> path, Object value, boolean remove) {
    JsonObject copy = base.copy();
    Object parent = copy;
    for (int i = 0; i < path.size() - 1; i++) {
      Object step = path.get(i);
      parent = parent instanceof JsonObject o ? o.getValue((String) step) : ((JsonArray) parent).getValue((Integer) step);
    }
    Object last = path.get(path.size() - 1);
    if (parent instanceof JsonObject o) {
      if (remove) {
        o.remove((String) last);
      } else {
        o.put((String) last, value instanceof JsonObject j ? j.copy() : value);
      }
    } else if (remove) {
      ((JsonArray) parent).remove((int) (Integer) last);
    } else {
      ((JsonArray) parent).set((Integer) last, value);
    }
    return copy;
  }

  private static boolean proven(JsonObject body) {
    // as the route sees it: parsed from the bytes on the wire
    return HeartbeatBody.provenValid(new JsonObject(body.toBuffer()));
  }

  private static boolean valid(JsonObject body) {
    Buffer bytes = body.toBuffer();
    return validator.validate(new ValidatableRequestImpl(Map.of(), Map.of(), Map.of(), Map.of(),
        new RequestParameterImpl(bytes), "application/json"), "sendHeartbeat").transform(
            done -> io.vertx.core.Future.succeededFuture(done.succeeded())).await();
  }

  private static JsonObject minimal() {
    return new JsonObject().put("agent_version", "0.1.0");
  }

  private static JsonArray gpus(int count) {
    JsonArray gpus = new JsonArray();
    for (int i = 0; i < count; i++) {
      gpus.add(new JsonObject().put("index", i));
    }
    return gpus;
  }

  /** What the benchmark's agents send: eight GPUs, every field. */
  private static JsonObject benchHeartbeat() {
    JsonArray gpus = new JsonArray();
    for (int i = 0; i < 8; i++) {
      gpus.add(new JsonObject().put("index", i).put("uuid", "GPU-" + i).put("temperature_c", 55 + i)
          .put("power_draw_w", 420.5).put("utilization_pct", 80 + i).put("memory_used_mib", 61440)
          .put("memory_total_mib", 81559).put("ecc_uncorrected", 0).put("remapped_rows_failure", false));
    }
    return minimal().put("sent_at", "2026-12-02T08:00:00.123456Z").put("telemetry", new JsonObject()
        .put("disk_free_gb", 5120.5).put("load_1m", 12.4).put("power_w", 4650.0).put("power_source", "measured")
        .put("disk_health", "passed").put("rtt_ms", 2.5).put("gpus", gpus));
  }

  /** What the host agent sends with containers: its image cache too, and a field this gateway does not know. */
  private static JsonObject agentHeartbeat() {
    JsonObject body = benchHeartbeat();
    body.getJsonObject("telemetry").put("newer_field", new JsonObject().put("a", 1));
    body.getJsonObject("telemetry").getJsonArray("gpus").getJsonObject(0).put("leftover_processes", null)
        .put("temperature_c", null);
    return body.put("images", new JsonArray()
        .add(new JsonObject().put("ref", "pytorch/pytorch:2.4").put("digest", "sha256:abc").put("size_bytes", 123456789L)
            .put("last_used_at", "2026-12-01T10:15:30.5Z"))
        .add(new JsonObject().put("ref", "ubuntu:24.04").put("digest", null).put("size_bytes", null)
            .put("last_used_at", null)));
  }
}
