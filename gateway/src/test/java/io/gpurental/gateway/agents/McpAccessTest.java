package io.gpurental.gateway.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.modelcontextprotocol.client.McpSyncClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Who may call {@code /mcp}, and the transport's rules (origin, protocol version, methods, size, rate). */
@GatewayTest(settings = "GATEWAY_RATE_LIMITS_WRITES_PER_MINUTE=" + McpAccessTest.WRITES_PER_MINUTE)
class McpAccessTest {
  static final int WRITES_PER_MINUTE = 5;
  private static TestGateway node;
  private static ApiClient reader;
  private static ApiClient writer;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    reader = ApiClient.signIn(node, "mcp-rita", new JsonArray().add("catalog:read").add("reservations:read"));
    writer = ApiClient.signIn(node, "mcp-wanda");
  }

  @Test
  void withoutATokenTheAnswerIs401PointingAtTheResourceMetadata() {
    HttpResponse<String> refused = McpClients.post(node, McpClients.initialize());
    assertEquals(401, refused.statusCode(), refused.body());
    String challenge = refused.headers().firstValue("WWW-Authenticate").orElse("");
    String metadataUrl = node.url("/.well-known/oauth-protected-resource/mcp");
    assertTrue(challenge.startsWith("Bearer ") && challenge.contains("resource_metadata=\"" + metadataUrl + "\""),
        challenge);
    assertEquals("2.0", new JsonObject(refused.body()).getString("jsonrpc"), "the body is a JSON-RPC error");

    for (String path : new String[] {"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"}) {
      JsonObject metadata = new JsonObject(node.get(path).body());
      assertEquals(node.url("/mcp"), metadata.getString("resource"), path);
      assertTrue(metadata.getJsonArray("scopes_supported").contains("reservations:write"), path);
    }
    assertEquals(401, McpClients.post(node, McpClients.initialize(), "Authorization", "Bearer gpr_nottoken")
        .statusCode());
    try (McpSyncClient anonymous = McpClients.sdk(node, null)) {
      assertThrows(RuntimeException.class, anonymous::initialize);
    }
  }

  @Test
  void aTokenWithoutReservationsWriteGets403InsufficientScopeOnCreateReservation() {
    JsonObject create = McpClients.toolCall("create_reservation", new JsonObject().put("offer_id", "off_fra_l40s_01")
        .put("gpu_count", 1).put("hours", 1).put("start", Instant.now().plus(5, ChronoUnit.DAYS).toString())
        .put("ssh_public_key", ApiClient.SSH_KEY));
    HttpResponse<String> refused = McpClients.post(node, create, "Authorization", "Bearer " + reader.token(),
        "MCP-Protocol-Version", "2025-11-25");
    assertEquals(403, refused.statusCode(), refused.body());
    String challenge = refused.headers().firstValue("WWW-Authenticate").orElse("");
    assertTrue(challenge.contains("error=\"insufficient_scope\"") && challenge.contains("scope=\"reservations:write\""),
        challenge);
    assertEquals(0L, node.sql("SELECT count(*) FROM reservations").iterator().next().getLong(0), "nothing booked");

    try (McpSyncClient client = McpClients.sdk(node, reader.token())) {
      client.initialize();
      assertTrue(McpClients.call(client, "search_offers", new JsonObject()).containsKey("data"),
          "reading stays allowed");
    }
  }

  @Test
  void aForeignOriginIs403AndTheGatewaysOwnIsServed() {
    HttpResponse<String> foreign = McpClients.post(node, McpClients.initialize(), "Authorization",
        "Bearer " + writer.token(), "Origin", "https://evil.example");
    assertEquals(403, foreign.statusCode(), foreign.body());
    URI own = URI.create(node.url("/"));
    HttpResponse<String> same = McpClients.post(node, McpClients.initialize(), "Authorization",
        "Bearer " + writer.token(), "Origin", own.getScheme() + "://" + own.getRawAuthority());
    assertEquals(200, same.statusCode(), same.body());
    assertEquals("gpu-rental-gateway", new JsonObject(same.body()).getJsonObject("result")
        .getJsonObject("serverInfo").getString("name"));
  }

  @Test
  void writeToolCallsShareTheTokensWriteLimit() {
    ApiClient agent = ApiClient.signIn(node, "mcp-loopy");
    JsonObject cancel = McpClients.toolCall("cancel_reservation", new JsonObject().put("reservation_id", "rsv_none"));
    for (int i = 0; i < WRITES_PER_MINUTE; i++) {
      HttpResponse<String> answered = McpClients.post(node, cancel, "Authorization", "Bearer " + agent.token());
      assertEquals(200, answered.statusCode(), answered.body());
      assertTrue(new JsonObject(answered.body()).getJsonObject("result").getBoolean("isError"), answered.body());
    }
    HttpResponse<String> limited = McpClients.post(node, cancel, "Authorization", "Bearer " + agent.token());
    assertEquals(429, limited.statusCode(), limited.body());
    assertTrue(limited.headers().firstValue("Retry-After").isPresent());
    assertEquals(429, agent.post("/api/v1/reservations/rsv_none/cancel", null).statusCode(),
        "the same bucket as the token's REST writes");
    assertEquals(200, McpClients.post(node, McpClients.toolCall("search_offers", new JsonObject()), "Authorization",
        "Bearer " + agent.token()).statusCode(), "reading is not limited");
  }

  @Test
  void theTransportKeepsItsRules() {
    String bearer = "Bearer " + writer.token();
    HttpResponse<String> get = node.send(HttpRequest.newBuilder(URI.create(node.url("/mcp")))
        .header("Authorization", bearer).header("Accept", "text/event-stream"));
    assertEquals(405, get.statusCode(), "stateless: no GET stream");
    assertEquals(400, McpClients.post(node, McpClients.initialize(), "Authorization", bearer,
        "MCP-Protocol-Version", "1999-01-01").statusCode());
    JsonObject huge = McpClients.toolCall("search_offers", new JsonObject().put("gpu_model", "x".repeat(70_000)));
    assertEquals(413, McpClients.post(node, huge, "Authorization", bearer).statusCode());
    HttpResponse<String> notJson = node.send(HttpRequest.newBuilder(URI.create(node.url("/mcp")))
        .header("Authorization", bearer).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{not json")));
    assertEquals(400, notJson.statusCode());
    assertEquals(-32700, new JsonObject(notJson.body()).getJsonObject("error").getInteger("code"));

    HttpResponse<String> sse = node.send(HttpRequest.newBuilder(URI.create(node.url("/mcp")))
        .header("Authorization", bearer).header("Content-Type", "application/json").header("Accept", "text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(McpClients.initialize().encode())));
    assertEquals(200, sse.statusCode(), sse.body());
    assertTrue(sse.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    assertTrue(sse.body().startsWith("event: message\ndata: {"), sse.body());
  }
}
