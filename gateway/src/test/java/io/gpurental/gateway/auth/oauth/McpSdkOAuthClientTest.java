package io.gpurental.gateway.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fidelity with software made by others: the official MCP TypeScript SDK's OAuth client
 * ({@code @modelcontextprotocol/sdk}, pinned in src/test/node/mcp-oauth-client/package-lock.json,
 * installed by npm from the npm registry into target/ once) discovers this gateway's
 * authorization server, registers, authorizes with PKCE through the sandbox sign-in and the
 * consent form (the script plays the browser), lists the tools and refreshes its token.
 */
@GatewayTest(settings = "GATEWAY_RATE_LIMITS_SIGN_INS_PER_MINUTE=1000")
class McpSdkOAuthClientTest {
  private static final Path SOURCE = Path.of("src/test/node/mcp-oauth-client");
  private static final Path INSTALLED = Path.of("target/mcp-oauth-client");
  private static TestGateway node;

  @BeforeAll
  static void install(TestGateway gateway) throws Exception {
    node = gateway;
    Files.createDirectories(INSTALLED);
    boolean lockChanged = !Files.exists(INSTALLED.resolve("package-lock.json"))
        || Files.mismatch(SOURCE.resolve("package-lock.json"), INSTALLED.resolve("package-lock.json")) != -1;
    for (String file : List.of("package.json", "package-lock.json", "oauth-client.mjs")) {
      Files.copy(SOURCE.resolve(file), INSTALLED.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }
    if (lockChanged || !Files.exists(INSTALLED.resolve("node_modules/@modelcontextprotocol/sdk/package.json"))) {
      Result installed = run(List.of("npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"), 300);
      assertEquals(0, installed.exit(), "npm ci of the MCP SDK failed:\n" + installed.output());
    }
  }

  @Test
  void theOfficialTypeScriptSdkAuthorizesListsToolsAndRefreshes() throws Exception {
    Result client = run(List.of("node", "oauth-client.mjs", node.url(""), "ts-sdk-tess"), 120);
    assertEquals(0, client.exit(), client.output());
    String[] lines = client.output().strip().split("\n");
    JsonObject seen = new JsonObject(lines[lines.length - 1]);
    String clientId = seen.getString("client_id");
    assertTrue(clientId.startsWith("mcpc_"), "registered dynamically: " + seen);
    assertEquals("S256", seen.getString("code_challenge_method"));
    assertEquals(node.url("/mcp"), seen.getString("resource"), "RFC 8707 resource from the SDK");
    assertTrue(seen.getJsonArray("tools").contains("search_offers"), seen.encode());
    assertEquals("AUTHORIZED", seen.getString("refreshed"));
    assertEquals(true, seen.getBoolean("access_changed"), "the refresh gave a new access token");
    assertEquals("gpr_oat_", seen.getString("access_prefix"));
    assertTrue(seen.getInteger("tools_after_refresh") > 0);
    var grant = node.sql("SELECT g.client_name, b.max_hours FROM oauth_grants g JOIN token_budgets b"
        + " ON b.token_id = g.token_id WHERE g.client_id = '" + clientId + "'").iterator().next();
    assertEquals("TS SDK headless test", grant.getString("client_name"));
    assertEquals(3, grant.getInteger("max_hours"), "the budget set at consent");
  }

  private record Result(int exit, String output) {}

  private static Result run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
    Path log = Files.createTempFile(INSTALLED.toAbsolutePath(), "run", ".log");
    Process process = new ProcessBuilder(command).directory(INSTALLED.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(command + " took over " + timeoutSeconds + " s:\n"
          + Files.readString(log, StandardCharsets.UTF_8));
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    return new Result(process.exitValue(), output);
  }
}
