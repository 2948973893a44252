package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.Contract;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Mass assignment, generated from openapi.yaml: every write operation with a JSON body, called by
 * a caller it admits, refuses a body carrying fields a client must never set (price, status,
 * account_id, role) with 400 problem+json naming them. Stripe's webhook is the one exception: its
 * body is Stripe's event object, which grows fields, and is trusted only through its signature.
 */
@GatewayTest
class MassAssignmentTest {
  private static final Set<String> EXEMPT = Set.of("receiveStripeWebhook");
  private static final List<String> EXTRAS = List.of("price", "status", "account_id", "role");

  /** A write operation with a request body, its path parameters filled in with well-formed values. */
  record Write(String method, String id, String path, List<Map<String, List<String>>> security) {
    boolean forAgents(String scheme) {
      return security.stream().anyMatch(r -> r.containsKey(scheme));
    }

    boolean acceptsTokens() {
      return security.stream().anyMatch(r -> r.containsKey("bearerAuth") || r.isEmpty());
    }
  }

  @TestFactory
  Stream<DynamicTest> everyWriteRefusesFieldsItDoesNotDeclare(TestGateway node, @SignedIn("operator") ApiClient operator)
      throws Exception {
    List<Write> writes = writes();
    assertTrue(writes.size() >= 20, "write operations with a body: " + writes);
    WebSession browser = new WebSession();
    browser.signIn(node, "github", "operator");
    String enrolment = FakeAgent.createHost(operator).getString("enrollment_token");
    String hostCredential = FakeAgent.enrolledHost(node, operator, "NVIDIA GeForce RTX 4090", 1).credential();
    JsonObject body = new JsonObject().put("price", 1).put("status", "confirmed")
        .put("account_id", "acc_someoneelse").put("role", "operator");
    return writes.stream().map(write -> DynamicTest.dynamicTest(write.method().toUpperCase() + " " + write.path(), () -> {
      String url = node.url("/api/v1" + write.path());
      HttpResponse<String> response;
      if (write.forAgents("enrollmentToken")) {
        response = node.send(request(write, url, body).header("Authorization", "Bearer " + enrolment));
      } else if (write.forAgents("hostCredential")) {
        response = node.send(request(write, url, body).header("Authorization", "Bearer " + hostCredential));
      } else if (write.acceptsTokens()) {
        response = node.send(request(write, url, body).header("Authorization", "Bearer " + operator.token()));
      } else {
        response = browser.write(write.method().toUpperCase(), url, body);
      }
      assertEquals(400, response.statusCode(), write + ": " + response.body());
      assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
          write + ": " + response.headers().map());
      for (String extra : EXTRAS) {
        assertTrue(response.body().contains(extra), write + " does not name " + extra + ": " + response.body());
      }
    }));
  }

  private static HttpRequest.Builder request(Write write, String url, JsonObject body) {
    return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .header("Idempotency-Key", UUID.randomUUID().toString())
        .method(write.method().toUpperCase(), HttpRequest.BodyPublishers.ofString(body.encode()));
  }

  private static List<Write> writes() {
    List<Write> writes = new ArrayList<>();
    for (Contract.Operation operation : Contract.get().operations()) {
      if (!Set.of("put", "post", "patch", "delete").contains(operation.method()) || !operation.hasBody()
          || EXEMPT.contains(operation.id())) {
        continue;
      }
      String path = operation.template();
      for (Map<String, Object> parameter : operation.parameters()) {
        if ("path".equals(parameter.get("in"))) {
          @SuppressWarnings("unchecked")
          Map<String, Object> schema = (Map<String, Object>) parameter.get("schema");
          path = path.replace("{" + parameter.get("name") + "}", Contract.wellFormed(schema));
        }
      }
      writes.add(new Write(operation.method(), operation.id(), path, operation.security()));
    }
    return writes;
  }
}
