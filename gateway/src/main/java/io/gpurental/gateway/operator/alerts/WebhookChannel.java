package io.gpurental.gateway.operator.alerts;

import io.gpurental.gateway.config.AlertsConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.time.Duration;
import java.time.Instant;

/**
 * POSTs each notification as JSON to {@code alerts.webhook.url}, signed in {@link
 * WebhookSignature#HEADER}; a 2xx answer delivers it, anything else (or no answer within the
 * timeout) is a failed attempt to retry.
 */
final class WebhookChannel implements Channel {
  private final WebClient client;
  private final AlertsConfig.Webhook webhook;
  private final Duration timeout;

  WebhookChannel(Vertx vertx, AlertsConfig.Webhook webhook, Duration timeout) {
    // a redirect could carry the signed payload to a host nobody configured: it counts as a failure
    this.client = WebClient.create(vertx, new WebClientOptions().setUserAgent("gpu-rental-gateway-alerts")
        .setConnectTimeout((int) timeout.toMillis()).setFollowRedirects(false));
    this.webhook = webhook;
    this.timeout = timeout;
  }

  @Override
  public String name() {
    return WEBHOOK;
  }

  /** The body: what happened to which incident, and when. */
  static JsonObject body(Notification n) {
    return new JsonObject()
        .put("id", n.incidentId() + "." + n.transition())
        .put("incident_id", n.incidentId())
        .put("rule", n.rule())
        .put("target", n.target())
        .put("status", n.transition())
        .put("at", n.at().toInstant().toString())
        .put("details", new JsonObject(n.detailsJson()));
  }

  @Override
  public Future<Outcome> send(Notification notification) {
    String body = body(notification).encode();
    String signature = WebhookSignature.header(webhook.secret(), Instant.now().getEpochSecond(), body);
    return client.postAbs(webhook.url().toString())
        .putHeader("Content-Type", "application/json")
        .putHeader(WebhookSignature.HEADER, signature)
        .timeout(timeout.toMillis())
        .sendBuffer(Buffer.buffer(body))
        .map(response -> response.statusCode() / 100 == 2 ? Outcome.delivered(response.statusCode())
            : Outcome.failed(response.statusCode(), "HTTP " + response.statusCode()))
        .otherwise(e -> Outcome.failed(null, e.getClass().getSimpleName() + ": " + e.getMessage()));
  }

  @Override
  public Future<Void> close() {
    client.close();
    return Future.succeededFuture();
  }
}
