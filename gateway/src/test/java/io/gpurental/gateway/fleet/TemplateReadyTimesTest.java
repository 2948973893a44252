package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Fleet III: time-to-ready per image template, split into starts that found the image cached and
 * starts whose agent reported pulling it (same rule as Fleet II: running − due, 30 days, p50/p95
 * with linear interpolation); and a template whose minimum driver or CUDA is above the host's is
 * marked unavailable on the offer and refused (409) for quotes and reservations on it.
 */
@GatewayTest
class TemplateReadyTimesTest {
  private static final String FUTURE_REF = "ghcr.io/acme/future@sha256:" + "cd34".repeat(16);

  @Test
  void readyTimesAreSplitPerTemplateIntoCachedAndPulledStarts(TestGateway node, @SignedIn("operator") ApiClient operator) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String offerId = ReadyGuaranteeTest.offerOf(operator, agent);
    JsonObject none = image(operator.json("/api/v1/offers/" + offerId), "img_demo_pytorch");
    assertEquals(new JsonObject().putNull("cached").putNull("uncached"), none.getJsonObject("time_to_ready"));

    String pytorch = ref(node, "img_demo_pytorch");
    String jupyter = ref(node, "img_demo_jupyter");
    // PyTorch: cached starts 10, 20, 30, 40, 100 s; starts that pulled it 200, 400 s
    for (int seconds : new int[] {10, 20, 30, 40, 100}) {
      instance(node, agent.hostId(), pytorch, false, seconds);
    }
    instance(node, agent.hostId(), pytorch, true, 200);
    instance(node, agent.hostId(), pytorch, true, 400);
    // Jupyter: one pulled start of 90 s; a custom image counts for the host only
    instance(node, agent.hostId(), jupyter, true, 90);
    instance(node, agent.hostId(), "ghcr.io/acme/custom:1", false, 5);

    JsonObject offer = operator.json("/api/v1/offers/" + offerId);
    // cached n = 5: p50 rank 2 = 30; p95 rank 3.8 = 40 + 0.8 · 60 = 88
    // pulled n = 2: p50 rank 0.5 = 300; p95 rank 0.95 = 200 + 0.95 · 200 = 390
    assertEquals(split(figures(30, 88, 5), figures(300, 390, 2)),
        image(offer, "img_demo_pytorch").getJsonObject("time_to_ready"));
    assertEquals(split(null, figures(90, 90, 1)), image(offer, "img_demo_jupyter").getJsonObject("time_to_ready"));
    assertEquals(split(null, null), image(offer, "img_demo_cuda").getJsonObject("time_to_ready"));
    // the host's figure still counts every start: 5, 10, 20, 30, 40, 90, 100, 200, 400 (n = 9)
    // p50 rank 4 = 40; p95 rank 7.6 = 200 + 0.6 · 200 = 320
    assertEquals(figures(40, 320, 9), offer.getJsonObject("time_to_ready"));

    JsonObject listed = operator.json("/api/v1/offers?limit=100").getJsonArray("data").stream()
        .map(JsonObject.class::cast).filter(o -> offerId.equals(o.getString("id"))).findFirst().orElseThrow();
    assertEquals(split(figures(30, 88, 5), figures(300, 390, 2)),
        image(listed, "img_demo_pytorch").getJsonObject("time_to_ready"), "search results carry the split too");
  }

  @Test
  void aTemplateNeedingANewerDriverOrCudaThanTheHostsIsUnavailableThereAndRefused(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("mia") ApiClient renter) {
    HttpResponse<String> created = operator.post("/api/v1/operator/images", new JsonObject().put("name", "Future CUDA")
        .put("ref", FUTURE_REF).put("min_driver_version", "560.28").put("min_cuda_version", "12.6"));
    assertEquals(201, created.statusCode(), created.body());
    String future = new JsonObject(created.body()).getString("id");
    // the fake agent reports driver 550.54.15 and CUDA 12.4
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    String offerId = ReadyGuaranteeTest.offerOf(operator, agent);

    JsonObject offer = renter.json("/api/v1/offers/" + offerId);
    JsonObject unavailable = image(offer, future);
    assertFalse(unavailable.getBoolean("available"), unavailable.encode());
    assertEquals("Future CUDA needs NVIDIA driver 560.28 or newer (this host has 550.54.15) and CUDA 12.6 or newer"
        + " (this host has 12.4).", unavailable.getString("unavailable_reason"));
    assertEquals("560.28", unavailable.getString("min_driver_version"));
    JsonObject pytorch = image(offer, "img_demo_pytorch"); // needs 550.54 and 12.4: met exactly or above
    assertTrue(pytorch.getBoolean("available"), pytorch.encode());
    assertNull(pytorch.getString("unavailable_reason"));

    JsonObject quote = new JsonObject().put("offer_id", offerId).put("gpu_count", 1).put("hours", 1);
    HttpResponse<String> refused = renter.post("/api/v1/quotes", quote.copy().put("image", future), null);
    assertEquals(409, refused.statusCode(), refused.body());
    assertTrue(refused.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
    JsonObject problem = new JsonObject(refused.body());
    assertTrue(problem.getString("detail").contains("560.28") && problem.getString("detail").contains("550.54.15"),
        problem.encode());
    assertEquals(new JsonObject().put("id", future).put("min_driver_version", "560.28").put("min_cuda_version", "12.6")
        .put("host_driver_version", "550.54.15").put("host_cuda_version", "12.4"), problem.getJsonObject("image"));

    HttpResponse<String> reserved = renter.post("/api/v1/reservations",
        ApiClient.reservationRequest(offerId, 1, null, 1, "checkout").put("image", future));
    assertEquals(409, reserved.statusCode(), reserved.body());
    HttpResponse<String> quoted = renter.post("/api/v1/quotes", quote.copy().put("image", "img_demo_pytorch"), null);
    assertEquals(201, quoted.statusCode(), quoted.body());
    HttpResponse<String> swapped = renter.post("/api/v1/reservations", new JsonObject()
        .put("quote_id", new JsonObject(quoted.body()).getString("id")).put("ssh_public_key", ApiClient.SSH_KEY)
        .put("payment", "checkout").put("image", future));
    assertEquals(409, swapped.statusCode(), "a quote's reservation cannot swap in an image the host cannot run: "
        + swapped.body());
    assertEquals(0L, node.sql("SELECT count(*) FROM reservations WHERE offer_id = '" + offerId + "'").iterator().next()
        .getLong(0), "nothing booked");

    // a host whose driver meets it (version compared number by number: 560.100 > 560.28)
    node.sql("UPDATE host_facts SET driver_version = '560.100.01', cuda_version = '12.10' WHERE host_id = '"
        + agent.hostId() + "'");
    assertTrue(image(renter.json("/api/v1/offers/" + offerId), future).getBoolean("available"));
    assertEquals(201, renter.post("/api/v1/quotes", quote.copy().put("image", future), null).statusCode());
  }

  private static int counter;

  /** An instance of {@code ref} that ran {@code seconds} after it was due, a day ago; {@code pulled}: it reported pulling. */
  private static void instance(TestGateway node, String hostId, String ref, boolean pulled, int seconds) {
    node.sql("INSERT INTO instances (reservation_id, host_id, gpu_indexes, ssh_public_key, unix_user, ends_at, due_at,"
        + " running_at, image_ref, pull_bytes_done) VALUES ('rsv_tpl_" + (++counter) + "', '" + hostId + "', '{0}',"
        + " 'k', 'u', now(), now() - interval '1 day' - interval '" + seconds + " seconds', now() - interval '1 day', '"
        + ref + "', " + (pulled ? "0" : "NULL") + ")");
  }

  private static String ref(TestGateway node, String templateId) {
    return node.sql("SELECT ref FROM image_templates WHERE id = '" + templateId + "'").iterator().next().getString(0);
  }

  private static JsonObject image(JsonObject offer, String templateId) {
    return offer.getJsonArray("images").stream().map(JsonObject.class::cast)
        .filter(t -> templateId.equals(t.getString("id"))).findFirst().orElseThrow(() -> new AssertionError(
            templateId + " not on the offer: " + offer.getJsonArray("images").encode()));
  }

  private static JsonObject split(JsonObject cached, JsonObject uncached) {
    return new JsonObject().put("cached", cached).put("uncached", uncached);
  }

  private static JsonObject figures(int p50, int p95, int samples) {
    return new JsonObject().put("p50_seconds", p50).put("p95_seconds", p95).put("samples", samples);
  }
}
