package io.gpurental.gateway.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.config.AuthConfig;
import io.gpurental.gateway.config.GatewayConfig;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's fault and test controls open only to the installation's random key: the sandbox's
 * fixed, documented secrets (its Stripe key, its OAuth client secrets, the webhook secret) no longer
 * break its demo hosts, fail instances or drop webhooks.
 */
@GatewayTest
class FaultControlKeyTest {
  private static final String FAULTS = "/sandbox/hosts/_test/hosts/host_osl_4090_01/faults";

  /** A control request: method, path, form or JSON body (null for none). */
  record Control(String method, String path, String contentType, String body) {}

  private static final List<Control> CONTROLS = List.of(
      new Control("GET", FAULTS, null, null),
      new Control("POST", FAULTS, "application/json", "{\"heartbeats\": \"stopped\"}"),
      new Control("DELETE", FAULTS, null, null),
      new Control("POST", "/sandbox/hosts/_test/instances/rsv_none/fail", null, null),
      new Control("POST", "/sandbox/stripe/_test/webhooks", "application/x-www-form-urlencoded", "mode=drop"),
      new Control("GET", "/sandbox/stripe/_test/deliveries", null, null),
      new Control("POST", "/sandbox/stripe/_test/checkout/sessions/cs_test_none/complete",
          "application/x-www-form-urlencoded", "card=4242424242424242"));

  @Test
  void theFixedSandboxSecretsNoLongerOpenFaultControls(TestGateway node) {
    GatewayConfig config = node.gateway().config();
    List<String> fixed = new ArrayList<>(List.of(config.stripe().secretKey(), config.stripe().webhookSecret()));
    config.auth().github().map(AuthConfig.Provider::clientSecret).ifPresent(fixed::add);
    config.auth().google().map(AuthConfig.Provider::clientSecret).ifPresent(fixed::add);
    assertTrue(fixed.stream().allMatch(secret -> secret != null && !secret.isBlank()), "the sandbox's secrets: " + fixed);
    for (Control control : CONTROLS) {
      for (String secret : fixed) {
        assertRefused(control, "Bearer " + secret, send(node, control, "Bearer " + secret));
        String basic = "Basic " + Base64.getEncoder().encodeToString((secret + ":").getBytes(StandardCharsets.UTF_8));
        assertRefused(control, basic, send(node, control, basic));
      }
      assertRefused(control, "no key", send(node, control, null));
    }
    // the demo host is still healthy: no refused request changed it
    HttpResponse<String> faults = send(node, CONTROLS.get(0), "Bearer " + node.gateway().sandboxFaultControlKey());
    assertEquals(200, faults.statusCode(), faults.body());
    assertTrue(faults.body().contains("\"heartbeats\":\"running\""), faults.body());
  }

  @Test
  void theKeyIsRandomPerInstallationAndOpensTheControls(TestGateway node) {
    String key = node.gateway().sandboxFaultControlKey();
    assertTrue(key.matches("gpr_fault_[A-Za-z0-9]{40}"), key);
    assertEquals(key, node.sql("SELECT key FROM sandbox_fault_control_key").iterator().next().getString(0));
    for (Control control : List.of(CONTROLS.get(0), CONTROLS.get(5))) {
      HttpResponse<String> answer = send(node, control, "Bearer " + key);
      assertEquals(200, answer.statusCode(), control + ": " + answer.body());
    }
    HttpResponse<String> drop = send(node, CONTROLS.get(4), "Bearer " + key);
    assertEquals(200, drop.statusCode(), drop.body());
    HttpResponse<String> normal = send(node, new Control("POST", "/sandbox/stripe/_test/webhooks",
        "application/x-www-form-urlencoded", "mode=normal"), "Bearer " + key);
    assertEquals(200, normal.statusCode(), normal.body());
  }

  private static void assertRefused(Control control, String as, HttpResponse<String> answer) {
    assertEquals(401, answer.statusCode(), control + " with " + as + ": " + answer.body());
  }

  private static HttpResponse<String> send(TestGateway node, Control control, String authorization) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url(control.path())))
        .method(control.method(), control.body() == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(control.body()));
    if (control.contentType() != null) {
      request.header("Content-Type", control.contentType());
    }
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return node.send(request);
  }
}
