package io.gpurental.gateway.payments;

import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Event;
import com.stripe.model.checkout.Session;
import com.stripe.net.Webhook;
import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.reservations.ReservationEvents;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /stripe/webhook}: verifies Stripe's signature, then applies each event once, in
 * the same transaction that records it (a duplicate or replayed event changes nothing), and
 * answers 2xx only after that commit.
 */
final class StripeWebhooks {
  private static final Logger LOG = LoggerFactory.getLogger(StripeWebhooks.class);
  private static final long TOLERANCE_SECONDS = 300;
  private static final Pattern TIMESTAMP = Pattern.compile("(?:^|,)t=(\\d+)");
  private final Vertx vertx;
  private final Pool pool;
  private final String secret;

  StripeWebhooks(Vertx vertx, Pool pool, String secret) {
    this.vertx = vertx;
    this.pool = pool;
    this.secret = secret;
  }

  void bind(RouterBuilder api) {
    api.getRoute("receiveStripeWebhook").addHandler(this::receive);
  }

  private void receive(RoutingContext ctx) {
    String payload = ctx.body().asString();
    Event event = verified(payload, ctx.request().getHeader("Stripe-Signature"));
    pool.withTransaction(tx -> tx.preparedQuery("INSERT INTO stripe_events (id, type) VALUES ($1, $2)"
            + " ON CONFLICT (id) DO NOTHING RETURNING id").execute(Tuple.of(event.getId(), event.getType()))
        .compose(fresh -> fresh.size() == 0 ? Future.succeededFuture((Confirmed) null) : apply(tx, event)))
        .onSuccess(confirmed -> {
          if (confirmed != null) {
            ReservationEvents.publish(vertx, confirmed.reservationId(), confirmed.accountId(), "confirmed");
            CatalogChanges.publish(vertx, "reservation confirmed");
          }
          ctx.json(new JsonObject().put("received", true));
        })
        .onFailure(ctx::fail);
  }

  /** A signature Stripe would accept, with a timestamp neither too old nor in the future. */
  private Event verified(String payload, String header) {
    Matcher timestamp = TIMESTAMP.matcher(header == null ? "" : header);
    if (!timestamp.find()) {
      throw new Invalid("Missing or malformed Stripe-Signature header.");
    }
    if (Long.parseLong(timestamp.group(1)) > System.currentTimeMillis() / 1000 + TOLERANCE_SECONDS) {
      throw new Invalid("The Stripe-Signature timestamp is in the future.");
    }
    try {
      return Webhook.constructEvent(payload, header, secret, TOLERANCE_SECONDS);
    } catch (SignatureVerificationException e) {
      throw new Invalid("The Stripe-Signature does not verify: " + e.getMessage());
    } catch (RuntimeException e) {
      throw new Invalid("The webhook payload is not a Stripe event.");
    }
  }

  private record Confirmed(String reservationId, String accountId) {}

  private Future<Confirmed> apply(SqlConnection tx, Event event) {
    if (!"checkout.session.completed".equals(event.getType())) {
      return Future.succeededFuture(null);
    }
    Session session = (Session) event.getDataObjectDeserializer().getObject().orElse(null);
    if (session == null || !"paid".equals(session.getPaymentStatus())) {
      return Future.succeededFuture(null);
    }
    return tx.preparedQuery("UPDATE payments SET status = 'succeeded', payment_intent_id = $2, updated_at = now()"
            + " WHERE checkout_session_id = $1 AND status = 'pending' RETURNING id, reservation_id, account_id, amount,"
            + " currency").execute(Tuple.of(session.getId(), session.getPaymentIntent()))
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture(null);
          }
          var payment = rows.iterator().next();
          String reservationId = payment.getString("reservation_id");
          return confirm(tx, reservationId)
              .compose(confirmed -> Ledger.recordCharge(tx, session.getPaymentIntent(), reservationId)
                  .map(v -> confirmed ? new Confirmed(reservationId, payment.getString("account_id")) : null));
        });
  }

  private static Future<Boolean> confirm(SqlConnection tx, String reservationId) {
    return tx.preparedQuery("UPDATE reservations SET status = 'confirmed', hold_expires_at = NULL, updated_at = now()"
            + " WHERE id = $1 AND status = 'pending_payment' RETURNING id").execute(Tuple.of(reservationId))
        .compose(rows -> {
          if (rows.size() == 0) {
            // paid after the hold lapsed: recorded and accounted for; the refund path is still to come
            LOG.error("Payment for {} arrived after its hold ended; it needs a refund", reservationId);
            return Future.succeededFuture(false);
          }
          return tx.preparedQuery("INSERT INTO reservation_events (reservation_id, from_status, to_status, cause)"
              + " VALUES ($1, 'pending_payment', 'confirmed', 'paid by card (Stripe Checkout)')")
              .execute(Tuple.of(reservationId)).map(true);
        });
  }
}
