package io.gpurental.gateway.payments;

import com.stripe.exception.SignatureVerificationException;
import com.stripe.model.Event;
import com.stripe.net.Webhook;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code POST /stripe/webhook}: verifies Stripe's signature and timestamp, then applies the event
 * once ({@link PaymentEvents}) and answers 2xx only after that commit. The check and the parse
 * (stripe-java's HMAC and Gson) run on a worker thread: a storm of webhooks must not stall the
 * event loop that serves every other request.
 */
final class StripeWebhooks {
  private static final long TOLERANCE_SECONDS = 300;
  private static final Pattern TIMESTAMP = Pattern.compile("(?:^|,)t=(\\d{1,12})(?:,|$)");
  private final Vertx vertx;
  private final PaymentEvents events;
  private final String secret;

  StripeWebhooks(Vertx vertx, PaymentEvents events, String secret) {
    this.vertx = vertx;
    this.events = events;
    this.secret = secret;
  }

  void bind(RouterBuilder api) {
    api.getRoute("receiveStripeWebhook").addHandler(this::receive);
  }

  private void receive(RoutingContext ctx) {
    String payload = ctx.body().asString();
    String header = ctx.request().getHeader("Stripe-Signature");
    vertx.executeBlocking(() -> StripeEvent.read(verified(payload, header)), false)
        .compose(events::apply)
        .onSuccess(applied -> ctx.json(new JsonObject().put("received", true)))
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
      StripeThreads.note(StripeThreads.Work.WEBHOOK, "verifying a webhook");
      return Webhook.constructEvent(payload, header, secret, TOLERANCE_SECONDS);
    } catch (SignatureVerificationException e) {
      throw new Invalid("The Stripe-Signature does not verify: " + e.getMessage());
    } catch (RuntimeException e) {
      throw new Invalid("The webhook payload is not a Stripe event.");
    }
  }
}
