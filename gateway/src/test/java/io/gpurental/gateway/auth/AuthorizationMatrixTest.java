package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Contract;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The authorization matrix, generated from openapi.yaml: every operation is tried without
 * credentials (401 unless it declares {@code {}}), as a renter when it needs the operator (403),
 * with a renter's token on agent routes (401), with another account's object ids (404), and with
 * an API token lacking the scope its {@code bearerAuth} requirement names (403, with an operator's
 * token, so operators are held to scopes too; session-only operations refuse every token), and
 * with a host agent's credential on every route that is not an agent route (401: a host never acts
 * as a user, and on a public route it is a bearer token that names nobody).
 */
@GatewayTest
class AuthorizationMatrixTest {
  private static final List<String> SCOPES = List.of("catalog:read", "reservations:read", "reservations:write",
      "payments:read", "payments:write", "operator");
  /** Path parameters that name objects a renter owns: the test makes one for account A. */
  private static final Set<String> OWNED = Set.of("reservation_id", "key_id", "payment_method_id", "token_id");
  private static final AtomicInteger CHECKS = new AtomicInteger();
  private static final AtomicInteger OPERATIONS = new AtomicInteger();

  private TestGateway node;
  private final Map<String, String> lackingTokens = new HashMap<>();

  /** One operation of the contract. */
  record Operation(String method, String template, String id, List<Map<String, List<String>>> security,
      boolean hasBody) {
    boolean isPublic() {
      return security.stream().anyMatch(Map::isEmpty);
    }

    boolean isAgent() {
      return security.stream().anyMatch(r -> r.containsKey("hostCredential") || r.containsKey("enrollmentToken"));
    }

    /** Every alternative needs the operator (role for sessions, scope for tokens). */
    boolean isOperatorOnly() {
      return !security.isEmpty() && security.stream().allMatch(r -> !r.isEmpty() && r.values().stream()
          .allMatch(values -> values.contains("operator")));
    }

    /** The scopes a token needs, or null when no token is accepted. */
    List<String> tokenScopes() {
      return security.stream().filter(r -> r.containsKey("bearerAuth")).map(r -> r.get("bearerAuth"))
          .findFirst().orElse(null);
    }

    List<String> ownedParameters() {
      List<String> owned = new ArrayList<>();
      OWNED.forEach(name -> {
        if (template.contains("{" + name + "}")) {
          owned.add(name);
        }
      });
      return owned;
    }

    @Override
    public String toString() {
      return method.toUpperCase() + " " + template + " (" + id + ")";
    }
  }

  @AfterAll
  static void report() {
    System.out.println("authorization matrix: " + OPERATIONS.get() + " operations, " + CHECKS.get() + " checks");
  }

  @TestFactory
  Stream<DynamicTest> everyOperationRefusesWhoItMust(TestGateway gateway, @SignedIn("matrix-ann") ApiClient ann,
      @SignedIn("matrix-bob") ApiClient bob, @SignedIn("renter-rita") ApiClient renter,
      @SignedIn("operator") ApiClient operator) throws Exception {
    node = gateway;
    List<Operation> operations = operations();
    assertTrue(operations.size() >= 70, "operations in the contract: " + operations.size());
    WebSession annBrowser = new WebSession();
    annBrowser.signIn(node, "github", "matrix-ann");
    WebSession bobBrowser = new WebSession();
    bobBrowser.signIn(node, "github", "matrix-bob");
    WebSession renterBrowser = new WebSession();
    renterBrowser.signIn(node, "github", "renter-rita");
    Map<String, String> annIds = annsObjects(ann, annBrowser);
    String hostCredential = FakeAgent.enrolledHost(node, operator, "NVIDIA GeForce RTX 4090", 1).credential();
    return operations.stream().map(operation -> DynamicTest.dynamicTest(operation.toString(), () -> {
      OPERATIONS.incrementAndGet();
      anonymous(operation);
      if (operation.isOperatorOnly()) {
        check(operation, "a renter's token", 403, send(operation, path(operation, Map.of()), "Bearer " + renter.token()));
        check(operation, "a renter's session", 403, renterBrowser.write(operation.method().toUpperCase(),
            node.url("/api/v1" + path(operation, Map.of())), body(operation)));
      }
      if (operation.isAgent()) {
        check(operation, "a renter's token", 401, send(operation, path(operation, Map.of()), "Bearer " + renter.token()));
      } else {
        check(operation, "a host agent's credential", 401,
            send(operation, path(operation, annIds), "Bearer " + hostCredential));
      }
      if (!operation.ownedParameters().isEmpty() && !operation.isOperatorOnly()) {
        othersObject(operation, annIds, bob, bobBrowser);
      }
      lackingScope(operation);
    }));
  }

  /** Without credentials: 401, unless the operation is public, which must not refuse. */
  private void anonymous(Operation operation) {
    HttpResponse<String> response = send(operation, path(operation, Map.of()), null);
    if (operation.isPublic()) {
      assertNotEquals(401, response.statusCode(), operation + " is public: " + response.body());
      assertNotEquals(403, response.statusCode(), operation + " is public: " + response.body());
      CHECKS.incrementAndGet();
    } else {
      check(operation, "no credentials", 401, response);
    }
  }

  /** Bob asks for Ann's object: 404, as if it did not exist. */
  private void othersObject(Operation operation, Map<String, String> annIds, ApiClient bob, WebSession bobBrowser) {
    for (String name : operation.ownedParameters()) {
      assertTrue(annIds.containsKey(name), operation + ": the test makes no " + name);
    }
    String path = path(operation, annIds);
    JsonObject body = operation.id().equals("extendReservation")
        ? new JsonObject().put("hours", 1).put("payment", "checkout") : body(operation);
    HttpResponse<String> response = operation.tokenScopes() != null
        ? node.send(request(operation, path, "Bearer " + bob.token(), body))
        : bobBrowser.write(operation.method().toUpperCase(), node.url("/api/v1" + path), body);
    check(operation, "another account's ids", 404, response);
  }

  /** An operator's token lacking the required scope: 403; a session-only operation refuses any token. */
  private void lackingScope(Operation operation) throws Exception {
    if (operation.isPublic() || operation.isAgent()) {
      return;
    }
    List<String> required = operation.tokenScopes();
    if (required == null) {
      check(operation, "an operator's token with every scope", 403,
          send(operation, path(operation, Map.of()), "Bearer " + tokenLacking(null)));
      return;
    }
    for (String scope : required) {
      check(operation, "an operator's token without " + scope, 403,
          send(operation, path(operation, Map.of()), "Bearer " + tokenLacking(scope)));
    }
  }

  /** An operator's token with every scope but {@code scope} (and the write scope implying it). */
  private String tokenLacking(String scope) {
    return lackingTokens.computeIfAbsent(String.valueOf(scope), key -> {
      JsonArray scopes = new JsonArray();
      for (String candidate : SCOPES) {
        boolean implies = scope != null && Scope.fromId(candidate).orElseThrow().grants(scope);
        if (!implies) {
          scopes.add(candidate);
        }
      }
      return ApiClient.signIn(node, "operator", scopes).token();
    });
  }

  /** A reservation, an SSH key, a saved card and a token of Ann's, by path parameter name. */
  private Map<String, String> annsObjects(ApiClient ann, WebSession annBrowser) {
    Map<String, String> ids = new HashMap<>();
    ids.put("reservation_id", ann.reserve("off_osl_4090_01", 2, null, 2, "checkout").getString("id"));
    HttpResponse<String> key = ann.post("/api/v1/ssh-keys",
        new JsonObject().put("name", "ann's key").put("public_key", ApiClient.SSH_KEY));
    assertEquals(201, key.statusCode(), key.body());
    ids.put("key_id", new JsonObject(key.body()).getString("id"));
    ids.put("payment_method_id", ann.saveCard("4242424242424242").getString("id"));
    HttpResponse<String> token = annBrowser.write("POST", node.url("/api/v1/tokens"),
        new JsonObject().put("name", "ann's token").put("scopes", new JsonArray().add("catalog:read")));
    assertEquals(201, token.statusCode(), token.body());
    ids.put("token_id", new JsonObject(token.body()).getString("id"));
    return ids;
  }

  private static void check(Operation operation, String as, int expected, HttpResponse<String> response) {
    CHECKS.incrementAndGet();
    assertEquals(expected, response.statusCode(), operation + " with " + as + ": " + response.body());
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
        operation + " with " + as + ": " + response.headers().map());
  }

  private HttpResponse<String> send(Operation operation, String path, String authorization) {
    return node.send(request(operation, path, authorization, body(operation)));
  }

  private HttpRequest.Builder request(Operation operation, String path, String authorization, JsonObject body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url("/api/v1" + path)))
        .method(operation.method().toUpperCase(), body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.encode()));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (operation.method().equals("post")) {
      request.header("Idempotency-Key", UUID.randomUUID().toString());
    }
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return request;
  }

  private static JsonObject body(Operation operation) {
    return operation.hasBody() ? new JsonObject() : null;
  }

  /** The path with owned ids filled in from {@code ids} and any other parameter well-formed but unknown. */
  private static String path(Operation operation, Map<String, String> ids) {
    String path = operation.template();
    for (Map.Entry<String, String> id : ids.entrySet()) {
      path = path.replace("{" + id.getKey() + "}", id.getValue());
    }
    return path.replaceAll("\\{([a-z_]+)}", "$1_x1");
  }

  static List<Operation> operations() {
    return Contract.get().operations().stream().map(operation -> new Operation(operation.method(),
        operation.template(), operation.id(), operation.security(), operation.hasBody())).toList();
  }
}
