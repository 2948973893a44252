package io.gpurental.gateway.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** An open event stream, read line by line on a thread of its own until the server ends it. */
public final class EventStream implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final HttpResponse<Stream<String>> response;
  private final List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final CompletableFuture<Long> endedAt = new CompletableFuture<>();
  private final CompletableFuture<Void> connected = new CompletableFuture<>();

  private EventStream(HttpResponse<Stream<String>> response) {
    this.response = response;
    Thread reader = new Thread(() -> {
      try {
        response.body().forEach(line -> {
          lines.add(line);
          if (line.equals(": connected")) {
            connected.complete(null);
          }
        });
      } catch (RuntimeException closedByUs) {
        // close() below
      }
      endedAt.complete(System.nanoTime());
    }, "event-stream-reader");
    reader.setDaemon(true);
    reader.start();
  }

  public static EventStream bearer(TestGateway on, String secret) throws Exception {
    return opened(CompletableFuture.completedFuture(request(on, secret)));
  }

  /** The answer's status and headers (bounded: 10 s); its body is read as it arrives. */
  public static HttpResponse<Stream<String>> request(TestGateway on, String secret) throws Exception {
    return HTTP.sendAsync(eventsRequest(on).header("Authorization", "Bearer " + secret).build(),
        HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
  }

  public static EventStream session(TestGateway on, WebSession browser) throws Exception {
    return opened(browser.sendAsync(eventsRequest(on), HttpResponse.BodyHandlers.ofLines()));
  }

  /** Opens one as soon as the server has seen a closed stream go (bounded: 10 s). */
  public static EventStream bearerOnceFree(TestGateway on, String secret) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      HttpResponse<Stream<String>> response = request(on, secret);
      if (response.statusCode() == 200) {
        return opened(CompletableFuture.completedFuture(response));
      }
      response.body().close();
      assertEquals(429, response.statusCode());
      assertTrue(System.nanoTime() < deadline, "the closed stream's slot was never freed");
      Thread.sleep(50);
    }
  }

  /** The stream of an answer still to come (bounded: 10 s); fails unless it is a 200. */
  public static EventStream opened(CompletableFuture<HttpResponse<Stream<String>>> sent) throws Exception {
    HttpResponse<Stream<String>> response = sent.get(10, TimeUnit.SECONDS);
    if (response.statusCode() != 200) {
      response.body().close();
      throw new AssertionError("the stream was refused: " + response.statusCode());
    }
    EventStream stream = new EventStream(response);
    stream.connected.get(10, TimeUnit.SECONDS);
    return stream;
  }

  public boolean isOpen() {
    return !endedAt.isDone();
  }

  public List<String> lines() {
    return lines;
  }

  /** How long after {@code since} (a nanoTime) the server ended the stream; fails after 30 s. */
  public Duration awaitEnd(long since) throws Exception {
    return Duration.ofNanos(endedAt.get(30, TimeUnit.SECONDS) - since);
  }

  @Override
  public void close() {
    response.body().close();
  }

  /** {@code GET /api/v1/events} on {@code on}, with a timeout longer than any test waits. */
  public static HttpRequest.Builder eventsRequest(TestGateway on) {
    return HttpRequest.newBuilder(URI.create(on.url("/api/v1/events"))).timeout(Duration.ofSeconds(120));
  }
}
