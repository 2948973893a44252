package io.gpurental.gateway.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Without a saved card, {@code create_reservation} holds the GPUs and answers the checkout page:
 * as a URL-mode elicitation (JSON-RPC error -32042) to a client that declared
 * {@code elicitation.url} at its last initialize, in the tool result to any other.
 */
@GatewayTest
class McpElicitationTest {
  private static final Instant START = Instant.now().plus(9, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static final String OFFER = "off_fra_l40s_01";
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  @SuppressWarnings("unchecked")
  void aClientDeclaringUrlElicitationIsAskedToOpenTheCheckout() {
    ApiClient renter = ApiClient.signIn(node, "mcp-elicit-url");
    JsonObject reserve = reservation(START);
    McpError required;
    try (McpSyncClient client = urlClient(renter.token())) {
      client.initialize();
      required = assertThrows(McpError.class, () -> client.callTool(
          new McpSchema.CallToolRequest("create_reservation", reserve.getMap())));
      assertEquals(McpSchema.ErrorCodes.URL_ELICITATION_REQUIRED, required.getJsonRpcError().code());
      McpError retried = assertThrows(McpError.class, () -> client.callTool(
          new McpSchema.CallToolRequest("create_reservation", reserve.getMap())));
      assertEquals(new JsonObject((Map<String, Object>) required.getJsonRpcError().data()),
          new JsonObject((Map<String, Object>) retried.getJsonRpcError().data()), "a retry answers the same elicitation");
    }
    JsonArray elicitations = new JsonObject((Map<String, Object>) required.getJsonRpcError().data())
        .getJsonArray("elicitations");
    assertEquals(1, elicitations.size());
    JsonObject elicitation = elicitations.getJsonObject(0);
    assertEquals("url", elicitation.getString("mode"));
    String id = elicitation.getString("elicitationId");
    JsonObject reservation = renter.json("/api/v1/reservations/" + id);
    assertEquals("pending_payment", reservation.getString("status"), reservation.encode());
    assertEquals(reservation.getJsonObject("payment").getString("checkout_url"), elicitation.getString("url"));
    assertTrue(elicitation.getString("message").contains(reservation.getString("hold_expires_at")),
        elicitation.getString("message"));
    assertTrue(elicitation.getString("message").contains("USD "), elicitation.getString("message"));
    assertEquals(1L, count("SELECT count(*) FROM reservations WHERE id = '" + id + "'"));
    assertEquals(1L, count("SELECT count(*) FROM reservations WHERE account_id = (SELECT account_id FROM"
        + " reservations WHERE id = '" + id + "')"), "the retry booked once");

    try (McpSyncClient plain = McpClients.sdk(node, renter.token())) {
      plain.initialize();
      JsonObject booked = McpClients.call(plain, "create_reservation", reserve);
      assertEquals(id, booked.getJsonObject("reservation").getString("id"),
          "the last initialize counts: without the capability the same hold comes back as a tool result");
      assertEquals(elicitation.getString("url"), booked.getString("checkout_url"));
    }
  }

  @Test
  void aClientWithoutUrlElicitationGetsTheCheckoutUrlInTheToolResult() {
    ApiClient renter = ApiClient.signIn(node, "mcp-elicit-plain");
    String bearer = "Bearer " + renter.token();
    HttpResponse<String> init = McpClients.post(node, McpClients.initialize()
        .put("params", McpClients.initialize().getJsonObject("params")
            .put("capabilities", new JsonObject().put("elicitation", new JsonObject()))), "Authorization", bearer);
    assertEquals(200, init.statusCode(), init.body());
    HttpResponse<String> call = McpClients.post(node, McpClients.toolCall("create_reservation",
        reservation(START.plus(2, ChronoUnit.DAYS))), "Authorization", bearer);
    JsonObject answer = new JsonObject(call.body());
    assertEquals(200, call.statusCode(), call.body());
    JsonObject result = answer.getJsonObject("result");
    assertNotNull(result, "a form-only client gets a tool result, not an error: " + call.body());
    JsonObject structured = result.getJsonObject("structuredContent");
    assertEquals("checkout", structured.getString("payment_method"));
    assertTrue(structured.getString("checkout_url").startsWith("http"), structured.encode());
    assertEquals("pending_payment", structured.getJsonObject("reservation").getString("status"));
  }

  private static JsonObject reservation(Instant start) {
    return new JsonObject().put("offer_id", OFFER).put("gpu_count", 1).put("hours", 1)
        .put("start", start.toString()).put("ssh_public_key", ApiClient.SSH_KEY);
  }

  /** The SDK client declaring URL-mode elicitation (it would open the page; here it declines). */
  private static McpSyncClient urlClient(String token) {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(node.url(""))
        .endpoint("/mcp")
        .httpRequestCustomizer((builder, method, uri, body, context) -> builder.header("Authorization",
            "Bearer " + token))
        .build();
    return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
        .capabilities(McpSchema.ClientCapabilities.builder().elicitation(false, true).build())
        .urlElicitation(request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE, null))
        .build();
  }

  private static long count(String query) {
    return node.sql(query).iterator().next().getLong(0);
  }
}
