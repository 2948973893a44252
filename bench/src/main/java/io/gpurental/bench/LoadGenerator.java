package io.gpurental.bench;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A closed-loop load generator: {@code concurrency} virtual clients each send a request, wait for
 * its answer and send the next, first for the warm-up (not recorded), then for the measured
 * duration; after that no request is started, so a run always ends by itself. Everything runs on
 * one event-loop context, so the histogram needs no locking.
 */
public final class LoadGenerator {
  private static final long TIMEOUT_MS = 10_000;
  /** Latencies above a minute are clamped; three significant digits are HdrHistogram's usual precision. */
  private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(1);
  private final Vertx vertx;
  private final URI target;

  public LoadGenerator(Vertx vertx, URI target) {
    this.vertx = vertx;
    this.target = Loopback.require(target);
  }

  /** Runs the scenario; the future completes once the last request in flight has answered. */
  public Future<Result> run(Scenario scenario, int concurrency, Duration warmup, Duration duration) {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1");
    }
    Context context = vertx.getOrCreateContext();
    return Future.<Result>future(done -> context.runOnContext(v -> new Run(scenario, concurrency, warmup, duration)
        .start().onComplete(done)));
  }

  /** One run's state, touched only on its context. */
  private final class Run {
    private final Scenario scenario;
    private final int concurrency;
    private final Duration warmup;
    private final Duration duration;
    private long measureFrom;
    private long stopAt;
    private final Histogram histogram = new Histogram(MAX_MICROS, 3);
    private final HttpClient client;
    private long sequence;
    private long requests;
    private long errors;
    private long lastEnd;
    private String firstError;

    Run(Scenario scenario, int concurrency, Duration warmup, Duration duration) {
      this.scenario = scenario;
      this.concurrency = concurrency;
      this.warmup = warmup;
      this.duration = duration;
      this.client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(target.getHost())
          .setDefaultPort(target.getPort()).setKeepAlive(true).setConnectTimeout(5_000),
          new PoolOptions().setHttp1MaxSize(concurrency));
    }

    Future<Result> start() {
      // the clock starts with the first request, not before the client is made (a cold JVM can
      // take longer than a short warm-up to make it): each virtual client's first request starts
      // within the run, so a run always sends at least one
      measureFrom = System.nanoTime() + warmup.toNanos();
      stopAt = measureFrom + duration.toNanos();
      List<Future<Void>> clients = new ArrayList<>();
      for (int i = 0; i < concurrency; i++) {
        Promise<Void> client = Promise.promise();
        loop(client);
        clients.add(client.future());
      }
      return Future.join(clients).eventually(client::close).map(v -> result());
    }

    // a Promise per virtual client, not a chain of Futures: a chain as long as the run would
    // complete recursively at the end and overflow the stack
    private void loop(Promise<Void> client) {
      long started = System.nanoTime();
      if (started >= stopAt) {
        client.complete();
        return;
      }
      send(scenario.next(sequence++)).onComplete(outcome -> {
        record(started, outcome.succeeded() ? null : String.valueOf(outcome.cause().getMessage()));
        loop(client);
      });
    }

    private Future<Void> send(Request request) {
      RequestOptions options = new RequestOptions().setMethod(request.method()).setURI(request.path())
          .setIdleTimeout(TIMEOUT_MS).setConnectTimeout(TIMEOUT_MS);
      if (request.headers() != null) {
        options.setHeaders(request.headers());
      }
      return client.request(options)
          .compose(req -> request.body() == null ? req.send() : req.send(request.body()))
          .compose(response -> response.body().compose(body -> check(response, body)))
          .compose(body -> request.then() == null ? Future.succeededFuture() : send(request.then().apply(body)));
    }

    private Future<Buffer> check(HttpClientResponse response, Buffer body) {
      int status = response.statusCode();
      if (status < 200 || status > 299) {
        String text = body.length() > 300 ? body.getString(0, 300) : body.toString();
        return Future.failedFuture("HTTP " + status + ": " + text);
      }
      return Future.succeededFuture(body);
    }

    private void record(long started, String error) {
      if (started < measureFrom) {
        return;
      }
      long end = System.nanoTime();
      lastEnd = Math.max(lastEnd, end);
      requests++;
      histogram.recordValue(Math.min(MAX_MICROS, TimeUnit.NANOSECONDS.toMicros(end - started)));
      if (error != null) {
        errors++;
        if (firstError == null) {
          firstError = error;
        }
      }
    }

    private Result result() {
      double seconds = requests == 0 ? 0 : (lastEnd - measureFrom) / 1e9;
      return new Result(scenario.name(), target.toString(), concurrency, requests, errors, seconds, histogram,
          firstError);
    }
  }
}
