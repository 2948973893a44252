package io.gpurental.gateway.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every operator route in the contract, generated from openapi.yaml (so routes added later are
 * covered too): a renter gets 403 problem+json with a token holding every renter scope and with a
 * browser session; nobody signed in gets 401.
 */
@GatewayTest
class OperatorRoutesForbiddenTest {
  private static final Set<String> METHODS = Set.of("get", "put", "post", "patch", "delete");
  private static TestGateway node;
  private static WebSession browser;

  /** One operation of the contract with its path parameters filled in. */
  record Route(String method, String template, String path) {}

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
    browser = new WebSession();
    browser.signIn(node, "github", "renter-rita");
  }

  @TestFactory
  Stream<DynamicTest> aRenterGets403AndNobodyGets401OnEveryOperatorRoute(@SignedIn("renter-rita") ApiClient renter)
      throws Exception {
    List<Route> routes = operatorRoutes();
    assertTrue(routes.size() >= 15, "the contract's operator routes: " + routes);
    return routes.stream().map(route -> DynamicTest.dynamicTest(route.method().toUpperCase() + " " + route.template(),
        () -> {
          String url = node.url("/api/v1" + route.path());
          assertForbidden(route, "token", node.send(request(route, url).header("Authorization", "Bearer " + renter.token())));
          assertForbidden(route, "session", browser.write(route.method().toUpperCase(), url, body(route)));
          HttpResponse<String> anonymous = node.send(request(route, url));
          assertEquals(401, anonymous.statusCode(), route + " anonymous: " + anonymous.body());
          assertProblemJson(route, anonymous);
        }));
  }

  private static void assertForbidden(Route route, String as, HttpResponse<String> response) {
    assertEquals(403, response.statusCode(), route + " as a renter's " + as + ": " + response.body());
    assertProblemJson(route, response);
    assertEquals(403, new JsonObject(response.body()).getInteger("status"));
    // refused for the missing role or scope, not for anything else (a CSRF refusal is also a 403)
    assertTrue(response.body().contains("operator"), route + " as a renter's " + as + ": " + response.body());
  }

  private static void assertProblemJson(Route route, HttpResponse<String> response) {
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
        route + ": " + response.headers());
  }

  private static HttpRequest.Builder request(Route route, String url) {
    JsonObject body = body(route);
    return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .method(route.method().toUpperCase(), body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.encode()));
  }

  private static JsonObject body(Route route) {
    return route.method().equals("get") || route.method().equals("delete") ? null : new JsonObject();
  }

  /** Every operation under /operator, with each {parameter} replaced by a well-formed value. */
  @SuppressWarnings("unchecked")
  static List<Route> operatorRoutes() throws Exception {
    Map<String, Object> contract;
    try (InputStream in = OperatorRoutesForbiddenTest.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
      contract = new ObjectMapper(new YAMLFactory()).readValue(in, Map.class);
    }
    List<Route> routes = new ArrayList<>();
    Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) contract.get("paths");
    paths.forEach((template, operations) -> {
      if (template.startsWith("/operator/") || template.equals("/operator")) {
        operations.keySet().stream().filter(METHODS::contains)
            .forEach(method -> routes.add(new Route(method, template, template.replaceAll("\\{([a-z_]+)}", "$1_x1"))));
      }
    });
    return routes;
  }
}
