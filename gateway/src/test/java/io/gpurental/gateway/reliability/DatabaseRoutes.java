package io.gpurental.gateway.reliability;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Routes that need PostgreSQL, a renter's and an operator's, each sent to a node with a client
 * that gives up after 20 s: what came back (status, problem type) and how long it took. Searches
 * ask for a price bound nobody asked before, so no cache can answer them.
 */
final class DatabaseRoutes {
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private static final Duration CLIENT_GIVES_UP = Duration.ofSeconds(20);
  private static final String SSH_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGrce7hzXfWyWoky9u8TUrZmcvp3RfrMOUNmPmLNA1Tc renter";
  static final String UNAVAILABLE = "urn:problem-type:gpu-rental:unavailable";

  /** One answer (status -1: none before the client gave up or the connection failed). */
  record Answer(String route, String node, int status, String problemType, boolean retryAfter, long millis,
      long answeredNanos, String body) {
    /** A 503 problem+json of type unavailable, with Retry-After. */
    boolean unavailable() {
      return status == 503 && UNAVAILABLE.equals(problemType) && retryAfter;
    }

    /** What a route answers when PostgreSQL serves: a success, or a 409 for a booked window. */
    boolean served() {
      return status / 100 == 2 || status == 409;
    }

    @Override
    public String toString() {
      return route + "@" + node + " " + status + " in " + millis + " ms" + (status / 100 == 2 ? "" : ": "
          + (body.length() > 160 ? body.substring(0, 160) : body));
    }
  }

  private record Call(String path, JsonObject body) {}

  private record Route(String name, String token, Function<Random, Call> call) {}

  private final List<Route> routes;
  private final Random random = new Random();
  private final Instant farSlots = Instant.now().plus(300, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

  DatabaseRoutes(String renterToken, String operatorToken) {
    routes = List.of(
        new Route("search (uncached)", renterToken, r -> get("/api/v1/offers?max_price_per_gpu_hour="
            + (100_000 + r.nextInt(90_000_000)))),
        new Route("offer page", renterToken, r -> get("/api/v1/offers/off_nyc_h200_01")),
        new Route("quote", renterToken, r -> post("/api/v1/quotes", new JsonObject().put("offer_id", "off_fra_l40s_01")
            .put("gpu_count", 1).put("hours", 1 + r.nextInt(4)))),
        new Route("reservation create", renterToken, r -> post("/api/v1/reservations", new JsonObject()
            .put("offer_id", "off_fra_a100_01").put("gpu_count", 1).put("hours", 1)
            .put("start", farSlots.plus(r.nextInt(2_000), ChronoUnit.HOURS).toString())
            .put("ssh_public_key", SSH_KEY).put("payment", "checkout"))),
        new Route("my reservations", renterToken, r -> get("/api/v1/reservations")),
        new Route("me", renterToken, r -> get("/api/v1/me")),
        new Route("operator hosts", operatorToken, r -> get("/api/v1/operator/hosts")),
        new Route("operator reservations", operatorToken, r -> get("/api/v1/operator/reservations")),
        new Route("operator economics", operatorToken, r -> get("/api/v1/operator/economics")));
  }

  int size() {
    return routes.size();
  }

  /** Every route once on each node, all at once; waits for every answer (at most the client's 20 s). */
  List<Answer> probe(List<GatewayProcess> nodes) {
    List<CompletableFuture<Answer>> answers = nodes.stream()
        .flatMap(node -> routes.stream().map(route -> send(node, route))).toList();
    return answers.stream().map(CompletableFuture::join).toList();
  }

  private CompletableFuture<Answer> send(GatewayProcess node, Route route) {
    Call call;
    synchronized (random) {
      call = route.call().apply(random);
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url(call.path()))).timeout(CLIENT_GIVES_UP)
        .header("Authorization", "Bearer " + route.token());
    if (call.body() != null) {
      request.header("Content-Type", "application/json").header("Idempotency-Key", UUID.randomUUID().toString())
          .POST(HttpRequest.BodyPublishers.ofString(call.body().encode()));
    }
    HttpRequest withNode = request.build();
    long started = System.nanoTime();
    return HTTP.sendAsync(withNode, HttpResponse.BodyHandlers.ofString()).handle((response, failure) -> {
      long millis = (System.nanoTime() - started) / 1_000_000;
      if (failure != null) {
        return new Answer(route.name(), node.name(), -1, null, false, millis, System.nanoTime(),
            String.valueOf(failure));
      }
      String type = null;
      if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
        type = new JsonObject(response.body()).getString("type");
      }
      return new Answer(route.name(), node.name(), response.statusCode(), type,
          response.headers().firstValue("Retry-After").isPresent(), millis, System.nanoTime(), response.body());
    });
  }

  private static Call get(String path) {
    return new Call(path, null);
  }

  private static Call post(String path, JsonObject body) {
    return new Call(path, body);
  }
}
