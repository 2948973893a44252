package io.gpurental.gateway.payments;

import io.gpurental.gateway.config.StripeConfig;
import io.gpurental.gateway.platform.Feature;
import io.vertx.core.Vertx;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;

/** Card payments: Stripe's webhooks confirm what was paid, and the ledger records it. */
public final class PaymentsFeature implements Feature {
  private final StripeWebhooks webhooks;

  public PaymentsFeature(Vertx vertx, Pool pool, StripeConfig stripe) {
    this.webhooks = new StripeWebhooks(vertx, pool, stripe.webhookSecret());
  }

  @Override
  public void bind(RouterBuilder api) {
    webhooks.bind(api);
  }
}
