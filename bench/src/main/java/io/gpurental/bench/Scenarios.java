package io.gpurental.bench;

import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.LongFunction;

/** The measured scenarios; each sends the same requests to the gateway and to the baseline. */
final class Scenarios {
  private static final int[] GPU_COUNTS = {1, 2, 4, 8};

  private Scenarios() {}

  static Scenario of(String name, LongFunction<Request> requests) {
    return new Scenario() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Request next(long sequence) {
        return requests.apply(sequence);
      }
    };
  }

  /** (a) The liveness probe: the HTTP stack and routing, no database. */
  static Scenario health() {
    return of("health", n -> Request.get("/health/live", null));
  }

  /** (b) An anonymous visitor's catalog search, default window (now, one hour). */
  static Scenario catalog() {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Accept", "application/json");
    return of("catalog search", n -> Request.get("/api/v1/offers", headers));
  }

  /** (c) A renter's quote over an API token: 1, 2, 4 or 8 GPUs for a day, rotating over the bench hosts' offers. */
  static Scenario quote(String renterToken, List<Fixtures.Host> hosts) {
    MultiMap headers = Fixtures.json(renterToken);
    return of("quote", n -> {
      Fixtures.Host host = hosts.get((int) (n % hosts.size()));
      JsonObject body = new JsonObject().put("offer_id", host.offerId())
          .put("gpu_count", GPU_COUNTS[(int) (n / hosts.size() % GPU_COUNTS.length)]).put("hours", 24);
      return Request.post("/api/v1/quotes", headers, body.toBuffer());
    });
  }

  /** (d) Heartbeats with 8-GPU telemetry from each enrolled host in turn (the telemetry write path). */
  static Scenario heartbeats(List<Fixtures.Host> hosts) {
    List<MultiMap> headers = hosts.stream().map(h -> Fixtures.json(h.credential())).toList();
    return of("agent heartbeat (8 GPUs)", n -> {
      int i = (int) (n % hosts.size());
      return Request.post("/api/v1/agent/heartbeat", headers.get(i),
          Telemetry.heartbeat(hosts.get(i).index(), n).toBuffer());
    });
  }

  /** (e) The operator's economics report over the default range (the 30 days up to the next hour). */
  static Scenario economics(String operatorToken) {
    MultiMap headers = Fixtures.bearer(operatorToken).add("Accept", "application/json");
    return of("operator economics (30 d)", n -> Request.get("/api/v1/operator/economics", headers));
  }
}
