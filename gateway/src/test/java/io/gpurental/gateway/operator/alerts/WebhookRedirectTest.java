package io.gpurental.gateway.operator.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.gpurental.gateway.config.AlertsConfig;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A webhook receiver that redirects gets a failed delivery, and the signed body goes nowhere else. */
class WebhookRedirectTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void aRedirectIsAFailedDeliveryAndIsNotFollowed() {
    AtomicInteger elsewhere = new AtomicInteger();
    HttpServer target = vertx.createHttpServer().requestHandler(req -> {
      elsewhere.incrementAndGet();
      req.response().setStatusCode(204).end();
    }).listen(0, "127.0.0.1").await();
    HttpServer redirecting = vertx.createHttpServer().requestHandler(req -> req.response().setStatusCode(307)
        .putHeader("Location", "http://127.0.0.1:" + target.actualPort() + "/stolen").end())
        .listen(0, "127.0.0.1").await();
    WebhookChannel channel = new WebhookChannel(vertx, new AlertsConfig.Webhook(
        URI.create("http://127.0.0.1:" + redirecting.actualPort() + "/hook"), "secret"), Duration.ofSeconds(5));

    Outcome outcome = channel.send(new Notification(1, "webhook", 1, "inc_1", "host_offline", "host_1", "opened",
        OffsetDateTime.now(), "{}")).await();

    assertFalse(outcome.delivered());
    assertEquals(307, outcome.statusCode());
    assertEquals(0, elsewhere.get(), "the redirect was not followed");
  }
}
