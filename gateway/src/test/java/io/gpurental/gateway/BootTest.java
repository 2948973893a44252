package io.gpurental.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real gateway boots on a fresh database and reports itself healthy, versioned and measured. */
@GatewayTest
class BootTest {
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  void readyWhenDatabaseAndClusterAreUp() {
    HttpResponse<String> response = node.get("/health/ready");
    assertEquals(200, response.statusCode());
    JsonObject body = new JsonObject(response.body());
    assertEquals("UP", body.getString("status"));
    JsonArray checks = body.getJsonArray("checks");
    for (String id : new String[] {"database", "cluster", "accepting_traffic"}) {
      JsonObject check = find(checks, id);
      assertEquals("UP", check.getString("status"), id + " should be UP: " + body);
    }
    assertEquals(1, find(checks, "cluster").getJsonObject("data").getInteger("members"));
    assertEquals(200, node.get("/health/live").statusCode());
  }

  @Test
  void versionShowsTheMigratedSchema() {
    HttpResponse<String> response = node.get("/api/v1/version");
    assertEquals(200, response.statusCode());
    JsonObject body = new JsonObject(response.body());
    String migrated = node.sql("SELECT version FROM schema_version").iterator().next().getString(0);
    assertEquals(migrated, body.getString("schema_version"));
    assertEquals(newestPackagedMigration(), body.getString("schema_version"));
    assertEquals("sandbox", body.getString("mode"));
    assertTrue(body.getString("version").matches("\\d+\\.\\d+\\.\\d+.*"), body.encode());
  }

  @Test
  void startIsRecordedInTheAuditLog() {
    long starts = node.sql("SELECT count(*) FROM audit_log WHERE action = 'node.started'")
        .iterator().next().getLong(0);
    assertEquals(1, starts);
  }

  @Test
  void everyResponseCarriesRequestIdAndSecurityHeaders() {
    HttpResponse<String> generated = node.get("/api/v1/version");
    assertTrue(generated.headers().firstValue("X-Request-Id").orElse("").length() >= 8);
    HttpResponse<String> echoed = node.send(HttpRequest.newBuilder(URI.create(node.url("/nope")))
        .header("X-Request-Id", "trace-12345678"));
    assertEquals("trace-12345678", echoed.headers().firstValue("X-Request-Id").orElseThrow());
    assertEquals("trace-12345678", new JsonObject(echoed.body()).getString("request_id"));
    for (HttpResponse<String> response : java.util.List.of(generated, echoed)) {
      assertEquals("nosniff", response.headers().firstValue("X-Content-Type-Options").orElseThrow());
      assertEquals("DENY", response.headers().firstValue("X-Frame-Options").orElseThrow());
      assertTrue(response.headers().firstValue("Referrer-Policy").isPresent());
      String csp = response.headers().firstValue("Content-Security-Policy").orElseThrow();
      assertTrue(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), csp);
    }
  }

  @Test
  void servesTheContractWithThisGatewaysServerUrl() {
    HttpResponse<String> response = node.get("/api/v1/openapi.yaml");
    assertEquals(200, response.statusCode());
    assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/yaml"));
    assertTrue(response.body().contains("openapi: \"3.1.0\""), response.body());
    assertTrue(response.body().contains(node.url("/api/v1")), "server URL should be this node's");
    assertTrue(response.body().contains("getVersion"));
  }

  @Test
  void metricsExposeRoutesPoolAndJvmInPrometheusFormat() {
    node.get("/api/v1/version");
    HttpResponse<String> response = node.getManagement("/metrics");
    assertEquals(200, response.statusCode());
    String metrics = response.body();
    assertTrue(metrics.lines().anyMatch(line -> line.startsWith("vertx_http_server_response_time_seconds_bucket")
        && line.contains("route=\"/api/v1/>/version\"")), "per-route latency histogram");
    assertTrue(metrics.lines().anyMatch(line -> line.startsWith("vertx_http_server_requests_total")
        && line.contains("route=\"/api/v1/>/version\"") && line.contains("code=\"200\"")), "per-route request rate");
    assertTrue(metrics.lines().anyMatch(line -> line.startsWith("vertx_pool_in_use")
        && line.contains("pool_name=\"gateway-db\"")), "PostgreSQL pool usage");
    assertTrue(metrics.contains("jvm_memory_used_bytes"), "JVM memory");
  }

  @Test
  void servesTheWebUiShellOnAppRoutes() {
    for (String path : new String[] {"/", "/catalog", "/reservations", "/account", "/operator", "/docs"}) {
      HttpResponse<String> response = node.get(path);
      assertEquals(200, response.statusCode(), path);
      assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"), path);
      assertTrue(response.body().contains("<script type=\"module\""), path);
    }
  }

  /** The highest V<n> among the migrations packaged from sql/. */
  private static String newestPackagedMigration() {
    try (var files = java.nio.file.Files.list(java.nio.file.Path.of(
        BootTest.class.getClassLoader().getResource("db/migration").toURI()))) {
      return String.valueOf(files.map(p -> p.getFileName().toString())
          .filter(name -> name.matches("V\\d+__.*\\.sql"))
          .mapToInt(name -> Integer.parseInt(name.substring(1, name.indexOf("__"))))
          .max().orElseThrow());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonObject find(JsonArray checks, String id) {
    for (int i = 0; i < checks.size(); i++) {
      if (id.equals(checks.getJsonObject(i).getString("id"))) {
        return checks.getJsonObject(i);
      }
    }
    throw new AssertionError("no check " + id + " in " + checks);
  }
}
