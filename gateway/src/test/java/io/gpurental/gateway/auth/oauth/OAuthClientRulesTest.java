package io.gpurental.gateway.auth.oauth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which client ids are fetched as metadata documents, and which redirect URIs a client may use. */
class OAuthClientRulesTest {
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  void plainHttpDocumentsOnlyFromLoopbackAndOnlyWhenAllowed() {
    OAuthClients production = new OAuthClients(vertx, null, false);
    OAuthClients sandbox = new OAuthClients(vertx, null, true);
    assertTrue(production.isDocumentUrl("https://client.example/oauth.json"));
    assertFalse(production.isDocumentUrl("http://127.0.0.1:8123/client.json"), "production: https only");
    assertTrue(sandbox.isDocumentUrl("http://127.0.0.1:8123/client.json"));
    assertFalse(sandbox.isDocumentUrl("http://client.example/client.json"), "never plain http elsewhere");
    assertFalse(production.isDocumentUrl("https://user@client.example/client.json"));
    assertFalse(production.isDocumentUrl("https://client.example/client.json#frag"));
  }

  @Test
  void documentsOnTheGatewaysOwnNetworkAreNeverFetched() {
    OAuthClients production = new OAuthClients(vertx, null, false);
    for (String url : new String[] {"https://127.0.0.1:9/client.json", "https://localhost:9/client.json",
        "https://169.254.169.254/latest/meta-data.json", "https://10.0.0.7/client.json", "https://[::1]:9/c.json"}) {
      Throwable refused = assertThrows(CompletionException.class,
          () -> production.resolve(url).toCompletionStage().toCompletableFuture().join(), url).getCause();
      assertTrue(refused.getMessage().contains("resolves to a private address"), url + ": " + refused.getMessage());
    }
  }

  @Test
  void redirectsAreHttpsOrLoopbackAndMatchExactlyExceptALoopbackPort() {
    assertTrue(OAuthClient.acceptableRedirect("https://app.example/cb"));
    assertTrue(OAuthClient.acceptableRedirect("http://127.0.0.1/cb"));
    assertFalse(OAuthClient.acceptableRedirect("http://app.example/cb"));
    assertFalse(OAuthClient.acceptableRedirect("https://app.example/cb#x"));
    OAuthClient client = new OAuthClient("mcpc_x", "x", List.of("http://127.0.0.1/cb", "https://app.example/cb"));
    assertTrue(client.allowsRedirect("http://127.0.0.1:53123/cb"), "RFC 8252: any loopback port");
    assertFalse(client.allowsRedirect("http://127.0.0.1:53123/other"));
    assertFalse(client.allowsRedirect("https://app.example/cb/more"));
    assertTrue(client.allowsRedirect("https://app.example/cb"));
  }
}
