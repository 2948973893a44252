package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers recorded events to the webhook endpoint, signed like Stripe's
 * ({@code Stripe-Signature: t=…,v1=HMAC-SHA256(secret, t + "." + payload)}), retrying with
 * exponential backoff until a 2xx (at most {@link #MAX_ATTEMPTS} attempts). Nodes claim events
 * with {@code FOR UPDATE SKIP LOCKED} for longer than a batch can take (20 sends of at most 10 s),
 * so with several nodes each event goes out once per attempt, in the order it happened.
 */
final class WebhookSender {
  static final int MAX_ATTEMPTS = 12;
  private static final Logger LOG = LoggerFactory.getLogger(WebhookSender.class);
  private static final long POLL_MS = 1_000;
  private static final String CONTROL = "SELECT mode, delay_seconds FROM sandbox_stripe.webhook_control WHERE id = 1";
  /** $2: events younger than this many seconds wait (the 'delay' mode). */
  private static final String CLAIM = """
      UPDATE sandbox_stripe.events SET locked_until = now() + interval '5 minutes', attempts = attempts + 1
      WHERE id IN (SELECT id FROM sandbox_stripe.events
                   WHERE delivered_at IS NULL AND next_attempt_at <= now() AND attempts < $1
                     AND created <= extract(epoch FROM now()) - $2
                     AND (locked_until IS NULL OR locked_until < now())
                   ORDER BY seq LIMIT 20 FOR UPDATE SKIP LOCKED)
      RETURNING id, body, attempts, seq""";
  private static final String DELIVERED = "UPDATE sandbox_stripe.events SET delivered_at = now(), locked_until = NULL"
      + " WHERE id = $1";
  private static final String RETRY = "UPDATE sandbox_stripe.events SET locked_until = NULL,"
      + " next_attempt_at = now() + make_interval(secs => $2) WHERE id = $1";
  private static final String LOG_DELIVERY = "INSERT INTO sandbox_stripe.deliveries (event_id, attempt, status, error,"
      + " note) VALUES ($1, $2, $3, $4, $5)";

  private final Vertx vertx;
  private final Pool pool;
  private final WebClient web;
  private final String endpoint;
  private final SecretKeySpec key;
  private long timer = -1;
  private boolean busy;

  WebhookSender(Vertx vertx, Pool pool, String endpoint, String secret) {
    this.vertx = vertx;
    this.pool = pool;
    this.web = WebClient.create(vertx);
    this.endpoint = endpoint;
    this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  void start() {
    timer = vertx.setPeriodic(POLL_MS, id -> deliverDue());
  }

  void stop() {
    vertx.cancelTimer(timer);
    web.close();
  }

  private synchronized void deliverDue() {
    if (busy) {
      return;
    }
    busy = true;
    pool.query(CONTROL).execute().compose(control -> {
      Row settings = control.iterator().next();
      String mode = settings.getString("mode");
      int delay = "delay".equals(mode) ? settings.getInteger("delay_seconds") : 0;
      return pool.preparedQuery(CLAIM).execute(Tuple.of(MAX_ATTEMPTS, delay)).compose(rows -> {
        List<Row> due = new ArrayList<>();
        rows.forEach(due::add);
        due.sort(java.util.Comparator.comparing((Row row) -> row.getLong("seq")));
        if ("reorder".equals(mode)) {
          java.util.Collections.reverse(due);
        }
        // one after another, so the order of arrival is the order chosen above
        Future<Void> chain = Future.succeededFuture();
        for (Row row : due) {
          chain = chain.compose(v -> send(row, mode));
        }
        return chain;
      });
    })
        .onComplete(done -> {
          synchronized (this) {
            busy = false;
          }
        });
  }

  private Future<Void> send(Row row, String mode) {
    String eventId = row.getString("id");
    int attempt = row.getInteger("attempts");
    if ("drop".equals(mode)) {
      return pool.preparedQuery(LOG_DELIVERY).execute(Tuple.of(eventId, attempt, null, null, "dropped"))
          .compose(v -> pool.preparedQuery(DELIVERED).execute(Tuple.of(eventId))).mapEmpty();
    }
    Future<Void> first = deliver(eventId, row.getJsonObject("body"), attempt, null);
    return "duplicate".equals(mode)
        ? first.compose(v -> deliver(eventId, row.getJsonObject("body"), attempt, "duplicate"))
        : first;
  }

  private Future<Void> deliver(String eventId, JsonObject event, int attempt, String note) {
    String payload = event.encode();
    long timestamp = System.currentTimeMillis() / 1000;
    return web.postAbs(endpoint)
        .putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
        .putHeader("Stripe-Signature", signature(timestamp, payload))
        .timeout(10_000)
        .sendBuffer(Buffer.buffer(payload))
        .map(response -> response.statusCode())
        .otherwise(failure -> -1)
        .compose(status -> {
          boolean ok = status >= 200 && status < 300;
          Integer logged = status < 0 ? null : status;
          String error = ok ? null : status < 0 ? "unreachable" : "HTTP " + status;
          if (!ok) {
            LOG.debug("Webhook {} attempt {} to {} failed: {}", eventId, attempt, endpoint, error);
          }
          long backoff = Math.min(3600, 1L << Math.min(attempt, 12));
          return pool.preparedQuery(LOG_DELIVERY).execute(Tuple.from(new Object[] {eventId, attempt, logged, error, note}))
              .compose(v -> ok ? pool.preparedQuery(DELIVERED).execute(Tuple.of(eventId))
                  : pool.preparedQuery(RETRY).execute(Tuple.of(eventId, (double) backoff)))
              .mapEmpty();
        });
  }

  /** The header value for a payload sent at {@code timestamp}, as Stripe computes it. */
  String signature(long timestamp, String payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      byte[] digest = mac.doFinal((timestamp + "." + payload).getBytes(StandardCharsets.UTF_8));
      return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
