package io.gpurental.bench;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * What the scenarios need, made through the gateway's real API as a person and an agent would:
 * sign-in at the sandbox GitHub, API tokens, a site, enrolled and activated hosts.
 */
final class Fixtures {
  private final WebClient web;
  private final URI base;

  /** An enrolled host: its id, its agent credential and its offer. */
  record Host(int index, String id, String credential, String offerId) {}

  Fixtures(Vertx vertx, URI base) {
    this.base = Loopback.require(base);
    this.web = WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false)
        .setDefaultHost(base.getHost()).setDefaultPort(base.getPort()));
  }

  /** Signs {@code login} in through the sandbox GitHub and creates an API token with these scopes. */
  Future<String> token(String login, JsonArray scopes) {
    return token(login, scopes, null);
  }

  /**
   * As {@link #token(String, JsonArray)}, with a budget set by the signed-in person (null: none).
   * A budget whose approval threshold is 0 makes every reservation of the token wait for approval:
   * a hold without a payment.
   */
  Future<String> token(String login, JsonArray scopes, JsonObject budget) {
    WebClientSession browser = WebClientSession.create(web);
    return browser.get("/auth/github").send()
        .compose(start -> browser.getAbs(location(start) + "&login=" + login).send())
        .compose(approved -> browser.getAbs(location(approved)).send())
        .compose(landed -> browser.get("/api/v1/me").send())
        .compose(me -> {
          String csrf = expect(me, 200).getString("csrf_token");
          return browser.post("/api/v1/tokens").putHeader("Origin", base.toString()).putHeader("X-CSRF-Token", csrf)
              .sendJsonObject(new JsonObject().put("name", "bench").put("scopes", scopes))
              .map(created -> expect(created, 201))
              .compose(created -> budget == null ? Future.succeededFuture(created.getString("token"))
                  : browser.put("/api/v1/tokens/" + created.getString("id") + "/budget")
                      .putHeader("Origin", base.toString()).putHeader("X-CSRF-Token", csrf)
                      .sendJsonObject(budget)
                      .map(set -> {
                        expect(set, 200);
                        return created.getString("token");
                      }));
        });
  }

  /** Creates a site and {@code count} hosts of 8 H100s, enrols each as its agent would and activates it. */
  Future<List<Host>> hosts(String operatorToken, int count, long pricePerGpuHour) {
    return call(operatorToken, HttpMethod.POST, "/api/v1/operator/sites",
        new JsonObject().put("name", "Bench site").put("region", "bench-1").put("country", "DE"), 201)
        .compose(site -> {
          Future<List<Host>> chain = Future.succeededFuture(new ArrayList<>());
          for (int i = 0; i < count; i++) {
            int index = i;
            chain = chain.compose(hosts -> host(operatorToken, site.getString("id"), index, pricePerGpuHour)
                .map(host -> {
                  hosts.add(host);
                  return hosts;
                }));
          }
          return chain;
        });
  }

  private Future<Host> host(String operatorToken, String siteId, int index, long price) {
    return call(operatorToken, HttpMethod.POST, "/api/v1/operator/hosts",
        new JsonObject().put("name", "bench-h100-" + index).put("site_id", siteId), 201)
        .compose(created -> call(created.getString("enrollment_token"), HttpMethod.POST, "/api/v1/agent/enroll",
            Telemetry.enrolment(index), 201))
        .compose(enrolled -> call(operatorToken, HttpMethod.POST,
            "/api/v1/operator/hosts/" + enrolled.getString("host_id") + "/activate",
            new JsonObject().put("price_per_gpu_hour", new JsonObject().put("amount", price).put("currency", "usd")), 200)
            .map(active -> new Host(index, enrolled.getString("host_id"), enrolled.getString("credential"),
                active.getJsonArray("offers").getString(0))));
  }

  /** One JSON request with a bearer token; fails unless it answers {@code status}. */
  Future<JsonObject> call(String bearer, HttpMethod method, String path, JsonObject body, int status) {
    var request = web.request(method, path).putHeader("Authorization", "Bearer " + bearer);
    return (body == null ? request.send() : request.sendJsonObject(body))
        .map(response -> expect(response, status));
  }

  static MultiMap bearer(String token) {
    return MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + token);
  }

  static MultiMap json(String token) {
    return bearer(token).add("Content-Type", "application/json");
  }

  static Buffer body(JsonObject json) {
    return json.toBuffer();
  }

  private String location(HttpResponse<Buffer> response) {
    String location = response.getHeader("Location");
    if (response.statusCode() != 302 || location == null) {
      throw new IllegalStateException("expected a redirect, got " + response.statusCode() + ": " + response.bodyAsString());
    }
    return Loopback.require(base.resolve(location)).toString();
  }

  private static JsonObject expect(HttpResponse<Buffer> response, int status) {
    if (response.statusCode() != status) {
      throw new IllegalStateException("expected " + status + ", got " + response.statusCode() + ": "
          + response.bodyAsString());
    }
    return response.body() == null || response.body().length() == 0 ? new JsonObject() : response.bodyAsJsonObject();
  }
}
