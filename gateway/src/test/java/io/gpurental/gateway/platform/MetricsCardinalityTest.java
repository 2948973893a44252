package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Request data a client chooses (method, path) never becomes a metric label of its own. */
@GatewayTest
class MetricsCardinalityTest {
  private static final int REQUESTS = 1_000;
  private static final int IN_FLIGHT = 50;
  private static final Set<String> STANDARD_METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");
  private static final Pattern METHOD = Pattern.compile("method=\"([^\"]*)\"");
  private static final Pattern ROUTE = Pattern.compile("route=\"([^\"]*)\"");
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static TestGateway node;

  @BeforeAll
  static void start(TestGateway gateway) {
    node = gateway;
  }

  @Test
  void madeUpMethodsAndPathsKeepHttpServerSeriesBounded() {
    node.get("/api/v1/version");
    List<String> before = httpServerSeries();

    Set<String> madeUpSegments = sendMadeUpRequests();

    List<String> after = httpServerSeries();
    System.out.printf("HTTP server series: %d before, %d after %d requests with made-up methods and paths%n",
        before.size(), after.size(), REQUESTS);
    Set<String> methods = labelValues(after, METHOD);
    Set<String> routes = labelValues(after, ROUTE);
    assertTrue(methods.contains("OTHER"), "made-up methods are counted as OTHER");
    assertTrue(STANDARD_METHODS.containsAll(difference(methods, Set.of("OTHER"))),
        "only standard methods and OTHER, got " + methods.size() + " values");
    assertTrue(routes.contains("unmatched"), "unmatched paths are counted as unmatched");
    // the demo fleet's agents may add real route templates meanwhile; none may carry a made-up path
    List<String> rawPathRoutes = routes.stream()
        .filter(route -> madeUpSegments.stream().anyMatch(route::contains)).toList();
    assertEquals(List.of(), rawPathRoutes, "no route label per raw path");
    long unmatchedLabelSets = after.stream()
        .filter(line -> line.startsWith("vertx_http_server_requests_total") && line.contains("route=\"unmatched\""))
        .count();
    assertTrue(unmatchedLabelSets <= 8, "a few method/status combinations for unmatched paths, got " + unmatchedLabelSets);
    // each combination carries latency and size histograms (a few hundred series); unbounded was 400,000+
    assertTrue(after.size() <= 5_000, before.size() + " series before, " + after.size() + " after");
  }

  /** Random made-up methods and random unmatched paths, some under the API, {@link #IN_FLIGHT} at a time. */
  private static Set<String> sendMadeUpRequests() {
    Set<String> segments = new TreeSet<>();
    List<CompletableFuture<HttpResponse<Void>>> batch = new ArrayList<>();
    for (int i = 0; i < REQUESTS; i++) {
      String random = UUID.randomUUID().toString().replace("-", "");
      segments.add(random);
      String method = i % 3 == 0 ? "GET" : "X" + random.substring(0, 8).toUpperCase();
      String path = (i % 2 == 0 ? "/api/v1/" : "/") + random;
      HttpRequest request = HttpRequest.newBuilder(URI.create(node.url(path)))
          .method(method, HttpRequest.BodyPublishers.noBody()).build();
      batch.add(HTTP.sendAsync(request, HttpResponse.BodyHandlers.discarding()));
      if (batch.size() == IN_FLIGHT || i == REQUESTS - 1) {
        batch.forEach(CompletableFuture::join);
        batch.clear();
      }
    }
    return segments;
  }

  private static Set<String> difference(Set<String> values, Set<String> removed) {
    Set<String> rest = new TreeSet<>(values);
    rest.removeAll(removed);
    return rest;
  }

  private static Set<String> labelValues(List<String> series, Pattern label) {
    Set<String> values = new TreeSet<>();
    for (String line : series) {
      Matcher matcher = label.matcher(line);
      if (matcher.find()) {
        values.add(matcher.group(1));
      }
    }
    return values;
  }

  private static List<String> httpServerSeries() {
    HttpResponse<String> scrape = node.getManagement("/metrics");
    assertEquals(200, scrape.statusCode());
    return scrape.body().lines().filter(line -> line.startsWith("vertx_http_server_")).toList();
  }
}
