package io.gpurental.gateway.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An agent rents GPUs through {@code /mcp} with the MCP SDK's own Java client, in the order an
 * agent would: initialize, list tools, search, quote, reserve with the saved card, read, extend,
 * cancel. The database and the ledger say the same as the tools.
 */
@GatewayTest
class McpServerTest {
  private static final Instant LATER = Instant.now().plus(4, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);
  private static final String OFFER = "off_fra_l40s_01";
  private static TestGateway node;
  private static ApiClient agentOwner;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    agentOwner = ApiClient.signIn(node, "mcp-olga");
    agentOwner.saveCard("4242424242424242");
  }

  @AfterEach
  void theLedgerChecksOut() {
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void anAgentRentsThroughTheSdkClient() {
    try (McpSyncClient client = McpClients.sdk(node, agentOwner.token())) {
      McpSchema.InitializeResult init = client.initialize();
      assertEquals("gpu-rental-gateway", init.serverInfo().name());
      assertEquals("2025-11-25", init.protocolVersion());

      Map<String, McpSchema.Tool> tools = client.listTools().tools().stream()
          .collect(Collectors.toMap(McpSchema.Tool::name, tool -> tool));
      assertEquals(Set.of("list_gpu_models", "list_images", "search_offers", "get_offer", "get_quote", "create_reservation",
          "get_reservation", "list_reservations", "extend_reservation", "cancel_reservation", "get_budget"),
          tools.keySet());
      tools.values().forEach(McpServerTest::fullyAnnotated);
      assertTrue(tools.get("cancel_reservation").annotations().destructiveHint());
      assertTrue(tools.get("search_offers").annotations().readOnlyHint());
      assertFalse(tools.get("create_reservation").annotations().readOnlyHint());

      JsonArray models = McpClients.call(client, "list_gpu_models", new JsonObject()).getJsonArray("data");
      assertFalse(models.isEmpty());
      JsonArray offers = McpClients.call(client, "search_offers", new JsonObject().put("start", LATER.toString())
          .put("hours", 2).put("region", "eu-central").put("min_gpus", 1)).getJsonArray("data");
      assertTrue(offers.stream().anyMatch(o -> OFFER.equals(((JsonObject) o).getString("id"))), offers.encode());
      assertEquals(rest("/api/v1/offers?region=eu-central&min_gpus=1&hours=2&start=" + LATER).getJsonArray("data")
          .size(), offers.size(), "the tool filters as GET /api/v1/offers does");
      JsonObject offer = McpClients.call(client, "get_offer", new JsonObject().put("offer_id", OFFER));
      assertEquals(14 * 24, offer.getJsonObject("availability").getJsonArray("free").size());

      JsonObject quote = McpClients.call(client, "get_quote", new JsonObject().put("offer_id", OFFER)
          .put("gpu_count", 1).put("start", LATER.toString()).put("hours", 2));
      assertTrue(quote.getString("id").length() > 0);
      JsonObject reserve = new JsonObject().put("quote_id", quote.getString("id"))
          .put("ssh_public_key", ApiClient.SSH_KEY);
      JsonObject booked = McpClients.call(client, "create_reservation", reserve);
      assertEquals("saved_card", booked.getString("payment_method"));
      assertNull(booked.getString("checkout_url"));
      JsonObject reservation = booked.getJsonObject("reservation");
      String id = reservation.getString("id");
      assertEquals("confirmed", reservation.getString("status"), reservation.encode());
      assertEquals(quote.getJsonObject("total").getLong("amount"), paid(id));

      JsonObject again = McpClients.call(client, "create_reservation", reserve);
      assertEquals(id, again.getJsonObject("reservation").getString("id"), "a retried call books once");
      assertEquals(1L, count("SELECT count(*) FROM reservations WHERE account_id = (SELECT account_id FROM"
          + " reservations WHERE id = '" + id + "')"));

      JsonObject read = McpClients.call(client, "get_reservation", new JsonObject().put("reservation_id", id));
      assertEquals(id, read.getString("id"));
      assertEquals(rest("/api/v1/reservations/" + id).getString("status"), read.getString("status"));

      JsonObject extended = McpClients.call(client, "extend_reservation", new JsonObject().put("reservation_id", id)
          .put("hours", 1)).getJsonObject("reservation");
      assertEquals(3, extended.getInteger("hours"), extended.encode());

      JsonObject cancelled = McpClients.call(client, "cancel_reservation", new JsonObject().put("reservation_id", id));
      assertEquals("cancelled", cancelled.getString("status"));
      assertTrue(count("SELECT count(*) FROM refunds r JOIN payments p ON p.id = r.payment_id"
          + " WHERE p.reservation_id = '" + id + "'") > 0, "the cancellation refunded");

      JsonArray listed = McpClients.call(client, "list_reservations", new JsonObject()).getJsonArray("data");
      assertEquals(id, listed.getJsonObject(0).getString("id"));
      JsonObject budget = McpClients.call(client, "get_budget", new JsonObject());
      assertNull(budget.getValue("budget"), "the owner set no budget on this token");
    }
  }

  @Test
  void anAgentListsImagesAndReservesWithOne() {
    try (McpSyncClient client = McpClients.sdk(node, agentOwner.token())) {
      client.initialize();
      JsonObject images = McpClients.call(client, "list_images", new JsonObject());
      assertEquals(rest("/api/v1/images"), images, "the tool answers what GET /api/v1/images does");
      assertTrue(images.getJsonArray("data").stream().anyMatch(t -> "img_demo_jupyter".equals(((JsonObject) t)
          .getString("id"))), images.encode());
      JsonObject offer = McpClients.call(client, "get_offer", new JsonObject().put("offer_id", OFFER));
      JsonObject jupyterHere = offer.getJsonArray("images").stream().map(JsonObject.class::cast)
          .filter(t -> "img_demo_jupyter".equals(t.getString("id"))).findFirst().orElseThrow();
      assertTrue(jupyterHere.getBoolean("available"), jupyterHere.encode());
      assertNotNull(jupyterHere.getJsonObject("time_to_ready"), jupyterHere.encode());

      Instant start = LATER.plus(3, ChronoUnit.DAYS);
      JsonObject quote = McpClients.call(client, "get_quote", new JsonObject().put("offer_id", OFFER)
          .put("gpu_count", 1).put("start", start.toString()).put("hours", 1).put("image", "img_demo_jupyter")
          .put("ports", java.util.List.of(8888, 6006))); // a plain list: the SDK client serialises the map as it is
      assertEquals("img_demo_jupyter", quote.getJsonObject("image").getString("template_id"), quote.encode());
      assertEquals(new JsonArray().add(8888).add(6006), quote.getJsonObject("image").getJsonArray("ports"));

      JsonObject booked = McpClients.call(client, "create_reservation", new JsonObject().put("offer_id", OFFER)
          .put("gpu_count", 1).put("start", start.plus(2, ChronoUnit.HOURS).toString()).put("hours", 1)
          .put("image", "img_demo_vllm").put("ssh_public_key", ApiClient.SSH_KEY));
      JsonObject reservation = booked.getJsonObject("reservation");
      assertEquals("img_demo_vllm", reservation.getJsonObject("image").getString("template_id"), reservation.encode());
      assertEquals("img_demo_vllm", node.sql("SELECT image_template_id FROM reservations WHERE id = '"
          + reservation.getString("id") + "'").iterator().next().getString(0));

      McpSchema.CallToolResult refused = client.callTool(new McpSchema.CallToolRequest("get_quote",
          Map.of("offer_id", OFFER, "gpu_count", 1, "image", "docker.io/evil/miner:latest")));
      assertTrue(refused.isError(), McpClients.text(refused));
      assertTrue(McpClients.text(refused).contains("#/image"), McpClients.text(refused));
      McpClients.call(client, "cancel_reservation", new JsonObject().put("reservation_id", reservation.getString("id")));
    }
  }

  @Test
  void aFailingToolAnswersAProblemNotAProtocolError() {
    try (McpSyncClient client = McpClients.sdk(node, agentOwner.token())) {
      client.initialize();
      McpSchema.CallToolResult missing = client.callTool(new McpSchema.CallToolRequest("get_reservation",
          Map.of("reservation_id", "rsv_nosuchthing")));
      assertTrue(missing.isError());
      String text = McpClients.text(missing);
      assertTrue(text.contains("No reservation rsv_nosuchthing") && text.contains("urn:problem-type:gpu-rental:"),
          text);
      assertFalse(text.contains("Exception"), text);

      McpSchema.CallToolResult badWindow = client.callTool(new McpSchema.CallToolRequest("get_quote",
          Map.of("offer_id", OFFER, "gpu_count", 1, "start", "yesterday")));
      assertTrue(badWindow.isError(), McpClients.text(badWindow));
    }
  }

  @Test
  void thePolicyResourceExplainsRefundsCreditsAndTheReadyGuarantee() {
    try (McpSyncClient client = McpClients.sdk(node, agentOwner.token())) {
      client.initialize();
      McpSchema.Resource policy = client.listResources().resources().get(0);
      McpSchema.ReadResourceResult read = client.readResource(new McpSchema.ReadResourceRequest(policy.uri()));
      String text = ((McpSchema.TextResourceContents) read.contents().get(0)).text();
      assertTrue(text.contains("## Cancelling") && text.contains("## Ready guarantee"), text);
      assertTrue(text.contains("credited"), text);
    }
  }

  private static void fullyAnnotated(McpSchema.Tool tool) {
    McpSchema.ToolAnnotations hints = tool.annotations();
    assertNotNull(hints, tool.name());
    assertNotNull(hints.readOnlyHint(), tool.name());
    assertNotNull(hints.destructiveHint(), tool.name());
    assertNotNull(hints.idempotentHint(), tool.name());
    assertNotNull(hints.openWorldHint(), tool.name());
    assertNotNull(tool.inputSchema(), tool.name());
    assertNotNull(tool.outputSchema(), tool.name());
  }

  private static JsonObject rest(String path) {
    return agentOwner.json(path);
  }

  private static long paid(String reservationId) {
    return node.sql("SELECT coalesce(sum(amount), 0) FROM payments WHERE status = 'succeeded' AND reservation_id = '"
        + reservationId + "'").iterator().next().getLong(0);
  }

  private static long count(String query) {
    return node.sql(query).iterator().next().getLong(0);
  }
}
