package io.gpurental.gateway.agents;

import io.gpurental.gateway.testing.TestGateway;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** The MCP SDK's own Java client against a test node, and raw JSON-RPC posts for what it hides. */
public final class McpClients {
  private McpClients() {}

  /** The SDK client (streamable HTTP) with {@code token} as bearer; null sends none. */
  public static McpSyncClient sdk(TestGateway node, String token) {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(node.url(""))
        .endpoint("/mcp")
        .httpRequestCustomizer((builder, method, uri, body, context) -> {
          if (token != null) {
            builder.header("Authorization", "Bearer " + token);
          }
        })
        .build();
    return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
  }

  /** A tool's structured result, failing the test with the tool's text when it is an error. */
  @SuppressWarnings("unchecked")
  public static JsonObject call(McpSyncClient client, String tool, JsonObject args) {
    McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest(tool, args.getMap()));
    if (Boolean.TRUE.equals(result.isError())) {
      throw new AssertionError(tool + " failed: " + text(result));
    }
    return new JsonObject((Map<String, Object>) result.structuredContent());
  }

  static String text(McpSchema.CallToolResult result) {
    StringBuilder text = new StringBuilder();
    result.content().forEach(content -> {
      if (content instanceof McpSchema.TextContent t) {
        text.append(t.text());
      }
    });
    return text.toString();
  }

  /** One JSON-RPC message posted as is, with these extra headers (name, value, name, value …). */
  static HttpResponse<String> post(TestGateway node, JsonObject message, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url("/mcp")))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(message.encode()));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return node.send(request);
  }

  static JsonObject initialize() {
    return new JsonObject().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
        .put("params", new JsonObject().put("protocolVersion", "2025-11-25").put("capabilities", new JsonObject())
            .put("clientInfo", new JsonObject().put("name", "test").put("version", "1")));
  }

  static JsonObject toolCall(String tool, JsonObject args) {
    return new JsonObject().put("jsonrpc", "2.0").put("id", 2).put("method", "tools/call")
        .put("params", new JsonObject().put("name", tool).put("arguments", args));
  }
}
