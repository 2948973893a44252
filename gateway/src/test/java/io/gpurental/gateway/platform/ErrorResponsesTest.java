package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every client mistake gets a useful problem+json, never a stack trace. */
@GatewayTest
class ErrorResponsesTest {
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  void unknownApiRouteIs404Problem() {
    JsonObject problem = problem(node.get("/api/v1/no-such-thing"), 404, "not-found");
    assertTrue(problem.getString("detail").contains("/api/v1/no-such-thing"));
    assertEquals("/api/v1/no-such-thing", problem.getString("instance"));
  }

  @Test
  void unknownPageIs404Problem() {
    problem(node.get("/definitely/not/here"), 404, "not-found");
  }

  @Test
  void wrongMethodIs405Problem() {
    problem(node.send(post("/api/v1/version", "application/json", "{}")), 405, "method-not-allowed");
  }

  @Test
  void oversizedBodyIs413Problem() {
    String big = "{\"pad\":\"" + "x".repeat(70_000) + "\"}";
    JsonObject problem = problem(node.send(post("/api/v1/version", "application/json", big)), 413, "payload-too-large");
    assertTrue(problem.getString("detail").contains("65536"), problem.encode());
  }

  @Test
  void malformedJsonIs400ProblemSayingWhere() {
    JsonObject problem = problem(node.send(post("/api/v1/version", "application/json", "{\"a\": tru")),
        400, "malformed-json");
    assertTrue(problem.getString("detail").contains("line 1"), problem.encode());
  }

  @Test
  void nonJsonBodyIs415Problem() {
    problem(node.send(post("/api/v1/version", "text/plain", "hello")), 415, "unsupported-media-type");
  }

  private static HttpRequest.Builder post(String path, String contentType, String body) {
    return HttpRequest.newBuilder(URI.create(node.url(path)))
        .header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  private static JsonObject problem(HttpResponse<String> response, int status, String kind) {
    assertEquals(status, response.statusCode(), response.body());
    assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
    assertNoStackTrace(response.body());
    JsonObject problem = new JsonObject(response.body());
    assertEquals("urn:problem-type:gpu-rental:" + kind, problem.getString("type"));
    assertEquals(status, problem.getInteger("status"));
    assertFalse(problem.getString("title").isBlank());
    assertFalse(problem.getString("detail").isBlank());
    assertEquals(response.headers().firstValue("X-Request-Id").orElseThrow(), problem.getString("request_id"));
    return problem;
  }

  static void assertNoStackTrace(String body) {
    assertFalse(body.matches("(?s).*\\bat [a-z]+\\.[a-zA-Z0-9_.$]+\\(.*"), "stack frame in body: " + body);
    assertFalse(body.contains("Exception"), "exception name in body: " + body);
    assertFalse(body.contains("io.vertx") || body.contains("java."), "class name in body: " + body);
  }
}
