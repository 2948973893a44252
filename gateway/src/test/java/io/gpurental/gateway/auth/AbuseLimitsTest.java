package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Sign-ins, token creations, writes and agents' desired-state fetches beyond their limits get 429 with Retry-After. */
@GatewayTest(settings = {
    "GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE=3",
    "GATEWAY_RATE_LIMITS_TOKEN_CREATIONS_PER_HOUR=2",
    "GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE=1000",
    "GATEWAY_RATE_LIMITS_AGENT_POLLS_PER_MINUTE=3"})
class AbuseLimitsTest {
  private static TestGateway node;
  private static WebSession victor;
  private static FakeAgent agent;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    victor = new WebSession();
    victor.signIn(node, "github", "victor");
    // before the sign-in test spends the limit of 3
    agent = FakeAgent.enrolledHost(node, ApiClient.signIn(node, "operator"), "NVIDIA H100 80GB HBM3", 1);
  }

  @Test
  void tokenCreationBeyondTheLimitIs429WithRetryAfter() {
    JsonObject request = new JsonObject().put("name", "t").put("scopes", new JsonArray().add("catalog:read"));
    assertEquals(201, victor.write("POST", node.url("/api/v1/tokens"), request).statusCode());
    assertTooMany(firstRefusal(5, () -> victor.write("POST", node.url("/api/v1/tokens"), request)));
  }

  @Test
  void signInsBeyondTheLimitAre429() {
    assertTooMany(firstRefusal(7, () -> new WebSession().get(node.url("/auth/github"))));
  }

  @Test
  void desiredStateFetchesBeyondTheLimitAre429PerHost() {
    assertTooMany(firstRefusal(7, () -> agent.desiredState(null, 0).join()));
  }

  /**
   * The first non-2xx/3xx answer within {@code attempts}: enough attempts that the limit is
   * exceeded even if a window boundary falls in the middle of the burst.
   */
  private static HttpResponse<String> firstRefusal(int attempts, Supplier<HttpResponse<String>> request) {
    HttpResponse<String> response = null;
    for (int i = 0; i < attempts; i++) {
      response = request.get();
      if (response.statusCode() >= 400) {
        return response;
      }
    }
    return response;
  }

  private static void assertTooMany(HttpResponse<String> response) {
    assertEquals(429, response.statusCode(), response.body());
    long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
    assertTrue(retryAfter >= 1, "Retry-After " + retryAfter);
    JsonObject problem = new JsonObject(response.body());
    assertEquals("urn:problem-type:gpu-rental:too-many-requests", problem.getString("type"));
    assertEquals(retryAfter, problem.getLong("retry_after_seconds"));
  }
}
