package io.gpurental.gateway.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.gpurental.gateway.agents.McpClients;
import io.gpurental.gateway.auth.signin.Pkce;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client identified by its Client ID Metadata Document, served by a local HTTP server (plain
 * HTTP to 127.0.0.1 is accepted in sandbox mode only), and the budget set at consent enforced on
 * its reservations by the API tokens' budget code.
 */
@GatewayTest(settings = "GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE=1000")
class ClientMetadataDocumentTest {
  private static TestGateway node;
  private static HttpServer documents;
  private static String base;

  @BeforeAll
  static void start(TestGateway gateway) throws Exception {
    node = gateway;
    documents = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    base = "http://127.0.0.1:" + documents.getAddress().getPort();
    serve("/client.json", new JsonObject().put("client_id", base + "/client.json").put("client_name", "Doc Agent")
        .put("redirect_uris", new JsonArray().add(OAuthDance.REDIRECT)).put("token_endpoint_auth_method", "none")
        .encode());
    serve("/impostor.json", new JsonObject().put("client_id", "https://someone.else/client.json")
        .put("client_name", "Impostor").put("redirect_uris", new JsonArray().add(OAuthDance.REDIRECT)).encode());
    serve("/huge.json", "{\"client_id\":\"" + base + "/huge.json\",\"client_name\":\"" + "x".repeat(40_000) + "\"}");
    documents.start();
  }

  private static void serve(String path, String body) {
    documents.createContext(path, exchange -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
      exchange.close();
    });
  }

  @AfterAll
  static void stop() {
    documents.stop(0);
  }

  @Test
  void aMetadataDocumentClientConsentsWithABudgetThatHoldsOnItsReservations() {
    String clientId = base + "/client.json";
    OAuthDance dance = new OAuthDance(node, "oauth-doc");
    OAuthDance.Authorized authorized = dance.authorize(clientId, OAuthDance.allow("max_hours", "2"));
    String access = dance.tokens(clientId, authorized).getString("access_token");
    assertEquals("Doc Agent", node.sql("SELECT client_name FROM oauth_grants WHERE client_id = '" + clientId + "'")
        .iterator().next().getString(0));

    try (McpSyncClient client = McpClients.sdk(node, access)) {
      client.initialize();
      McpSchema.CallToolResult tooLong = client.callTool(new McpSchema.CallToolRequest("create_reservation",
          Map.of("offer_id", "off_fra_l40s_01", "gpu_count", 1, "hours", 5,
              "start", Instant.now().plus(5, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS).toString(),
              "ssh_public_key", ApiClient.SSH_KEY)));
      String text = tooLong.content().stream().filter(c -> c instanceof McpSchema.TextContent)
          .map(c -> ((McpSchema.TextContent) c).text()).findFirst().orElse("");
      assertTrue(tooLong.isError() && text.contains("budget"), text);
    }
    assertEquals(0L, node.sql("SELECT count(*) FROM reservations").iterator().next().getLong(0));
  }

  @Test
  void aDocumentThatIsNotItsOwnOrTooLargeIsRefused() {
    OAuthDance dance = new OAuthDance(node, "oauth-doc2");
    for (String path : new String[] {"/impostor.json", "/huge.json", "/missing.json"}) {
      Map<String, String> params = OAuthDance.request(base + path, Pkce.challenge(Pkce.newVerifier()));
      HttpResponse<String> refused = dance.browser.get(node.url("/oauth/authorize?" + OAuthDance.form(params)));
      assertEquals(400, refused.statusCode(), path + ": " + refused.body());
      assertTrue(refused.body().contains("client_id"), refused.body());
    }
  }
}
