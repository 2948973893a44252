package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Metrics are served only on the management listener; health answers on both listeners. */
@GatewayTest
class ManagementListenerTest {
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  void managementListenerServesMetricsAndHealth() {
    HttpResponse<String> metrics = node.getManagement("/metrics");
    assertEquals(200, metrics.statusCode());
    assertTrue(metrics.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
    assertTrue(metrics.body().contains("jvm_memory_used_bytes"), "Prometheus text format");
    for (String job : new String[] {"payments.reconcile", "reservations.expire-holds",
        "reservations.start-and-end-windows", "reservations.prune-idempotency-keys", "payments.prune-stripe-events"}) {
      assertTrue(metrics.body().contains("gateway_job_runs_total{job=\"" + job + "\"}"), "cluster job " + job);
    }
    assertEquals(200, node.getManagement("/health/live").statusCode());
    HttpResponse<String> ready = node.getManagement("/health/ready");
    assertEquals(200, ready.statusCode());
    assertEquals("UP", new JsonObject(ready.body()).getString("status"));
  }

  @Test
  void publicPortAnswersHealthButNotMetrics() {
    assertEquals(200, node.get("/health/live").statusCode());
    assertEquals(200, node.get("/health/ready").statusCode());
    HttpResponse<String> metrics = node.get("/metrics");
    assertEquals(404, metrics.statusCode());
    assertEquals("application/problem+json", metrics.headers().firstValue("Content-Type").orElseThrow());
    assertTrue(!metrics.body().contains("jvm_memory"), "no metrics on the public port");
  }

  @Test
  void managementListenerServesNothingElse() {
    HttpResponse<String> api = node.getManagement("/api/v1/version");
    assertEquals(404, api.statusCode());
    assertEquals("application/problem+json", api.headers().firstValue("Content-Type").orElseThrow());
  }
}
