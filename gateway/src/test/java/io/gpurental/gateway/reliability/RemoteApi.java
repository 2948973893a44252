package io.gpurental.gateway.reliability;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

/** JSON requests with a bearer token (an API token or a host credential) to a node in another JVM. */
final class RemoteApi {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String token;
  private volatile GatewayProcess node;
  /** The host of an agent's credential, for agents. */
  String hostId;

  RemoteApi(GatewayProcess node, String token) {
    this.node = node;
    this.token = token;
  }

  /** Sends the following requests to {@code other} (as a client fails over). */
  void use(GatewayProcess other) {
    node = other;
  }

  HttpResponse<String> send(String method, String path, JsonObject body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.url(path))).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.encode()));
    if ("POST".equals(method)) {
      request.header("Idempotency-Key", UUID.randomUUID().toString());
    }
    try {
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(method + " " + path + " on " + node.name() + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Sends and expects {@code status}; returns the body as JSON (empty for no body). */
  JsonObject expect(int status, String method, String path, JsonObject body) {
    HttpResponse<String> response = send(method, path, body);
    if (response.statusCode() != status) {
      throw new AssertionError(method + " " + path + " on " + node.name() + ": expected " + status + ", got "
          + response.statusCode() + ": " + response.body());
    }
    return response.body().isEmpty() ? new JsonObject() : new JsonObject(response.body());
  }
}
