package io.gpurental.gateway.sandbox.hosts;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.fleet.DemoHosts;
import io.gpurental.gateway.operator.economics.DemoHostCosts;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo as a first-time user sees it: every demo host healthy under the default health rules
 * (the simulated agents report a plausible disk of their own, not this machine's), and host costs
 * in place so the Economics and Prices pages show real break-even figures.
 */
@GatewayTest
class DemoFleetAsShownTest {
  @Test
  void everyDemoHostIsActiveWithHealthyGpusUnderTheDefaultRules(TestGateway node) {
    ApiClient operator = ApiClient.signIn(node, "operator");
    for (DemoHosts.Host demo : DemoHosts.HOSTS) {
      JsonObject host = eventually(demo.id() + " reports telemetry", Duration.ofSeconds(30),
          () -> operator.json("/api/v1/operator/hosts/" + demo.id()), h -> h.getValue("telemetry") != null);
      assertEquals("active", host.getString("status"), host.encode());
      double diskFree = host.getJsonObject("telemetry").getDouble("disk_free_gb");
      assertEquals(demo.nvmeGb() * 0.8, diskFree, 0.05, "a fixed share of the host's own NVMe");
      host.getJsonArray("gpus").forEach(g -> assertEquals("healthy",
          ((JsonObject) g).getJsonObject("health").getString("status"), host.encode()));
    }
  }

  @Test
  void demoHostsHaveCostsAndTheEconomicsReportUsesThem(TestGateway node) {
    ApiClient operator = ApiClient.signIn(node, "operator");
    for (DemoHosts.Host demo : DemoHosts.HOSTS) {
      JsonObject costs = operator.json("/api/v1/operator/hosts/" + demo.id() + "/costs");
      assertTrue(costs.getLong("purchase_price") > costs.getLong("residual_value"), costs.encode());
    }
    assertEquals("demo-fleet", operator.json("/api/v1/operator/hosts/host_nyc_h100_01/costs").getString("updated_by"));
    JsonObject fleet = operator.json("/api/v1/operator/economics").getJsonArray("data").getJsonObject(0);
    assertEquals(0, fleet.getInteger("hosts_without_costs"), fleet.encode());
    assertTrue(fleet.getJsonObject("depreciation").getLong("amount") > 0, fleet.encode());
    assertTrue(fleet.getJsonObject("other_costs").getLong("amount") > 0, fleet.encode());
  }

  @Test
  void seedingAgainKeepsCostsTheOperatorEntered(TestGateway node) {
    ApiClient operator = ApiClient.signIn(node, "operator");
    String path = "/api/v1/operator/hosts/host_osl_5090_01/costs";
    HttpResponse<String> put = operator.put(path, new JsonObject().put("currency", "usd")
        .put("purchase_price", 777_700).put("residual_value", 0).put("depreciation_months", 24)
        .put("electricity_price_per_kwh", 9).put("pue", 1.1).put("colocation_per_month", 10_000)
        .put("bandwidth_per_month", 0).put("maintenance_per_month", 0));
    assertEquals(200, put.statusCode(), put.body());

    TestGateway.await(DemoHostCosts.seed(node.gateway().pool(), "usd"));

    JsonObject kept = operator.json(path);
    assertEquals(777_700L, kept.getLong("purchase_price"), kept.encode());
    assertTrue(!"demo-fleet".equals(kept.getString("updated_by")), kept.encode());
    var periods = node.sql("SELECT count(*) FILTER (WHERE effective_from = '-infinity'), count(*)"
        + " FROM host_cost_periods").iterator().next();
    assertEquals(List.of(6L, 7L), List.of(periods.getLong(0), periods.getLong(1)),
        "one period since joining per demo host, none added twice, and the operator's change from this hour");
  }
}
