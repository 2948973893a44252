package io.gpurental.gateway.reliability;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;

/**
 * Many browser sessions signed in through the sandbox GitHub, on one shared HTTP client (a
 * {@link io.gpurental.gateway.testing.WebSession} each would cost a client and its thread each):
 * each session is only its cookies, followed by hand through the sign-in redirects.
 */
final class SessionFarm {
  private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(10)).build();

  /** Signs {@code count} people in on {@code node}, {@code concurrency} at a time; returns their cookies. */
  List<Map<String, String>> signIn(GatewayProcess node, int count, int concurrency) throws InterruptedException {
    Semaphore slots = new Semaphore(concurrency);
    List<CompletableFuture<Map<String, String>>> sessions = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      slots.acquire();
      Map<String, String> cookies = new LinkedHashMap<>();
      String login = "session" + i;
      sessions.add(redirect(node.url("/auth/github"), cookies)
          .thenCompose(authorize -> redirect(authorize + "&login=" + login, cookies))
          .thenCompose(callback -> redirect(callback, cookies))
          .thenApply(landing -> cookies)
          .whenComplete((done, failure) -> slots.release()));
    }
    return sessions.stream().map(CompletableFuture::join).toList();
  }

  /** The status of GET /api/v1/me on {@code node} with each session's cookies. */
  List<Integer> me(GatewayProcess node, List<Map<String, String>> sessions, int concurrency)
      throws InterruptedException {
    Semaphore slots = new Semaphore(concurrency);
    List<CompletableFuture<Integer>> answers = new ArrayList<>();
    for (Map<String, String> cookies : sessions) {
      slots.acquire();
      answers.add(http.sendAsync(request(node.url("/api/v1/me"), cookies), HttpResponse.BodyHandlers.discarding())
          .thenApply(HttpResponse::statusCode).exceptionally(failure -> -1)
          .whenComplete((status, failure) -> slots.release()));
    }
    return answers.stream().map(CompletableFuture::join).toList();
  }

  private CompletableFuture<String> redirect(String url, Map<String, String> cookies) {
    return http.sendAsync(request(url, cookies), HttpResponse.BodyHandlers.ofString()).thenApply(response -> {
      response.headers().allValues("Set-Cookie").forEach(header -> {
        String pair = header.split(";", 2)[0];
        int at = pair.indexOf('=');
        cookies.put(pair.substring(0, at), pair.substring(at + 1));
      });
      if (response.statusCode() != 302) {
        throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
      }
      return response.headers().firstValue("Location").orElseThrow();
    });
  }

  private static HttpRequest request(String url, Map<String, String> cookies) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET();
    if (!cookies.isEmpty()) {
      request.header("Cookie", cookies.entrySet().stream().map(c -> c.getKey() + "=" + c.getValue())
          .collect(Collectors.joining("; ")));
    }
    return request.build();
  }
}
