package io.gpurental.gateway.sandbox.stripe;

import com.stripe.Stripe;
import io.gpurental.gateway.config.StripeConfig;
import io.gpurental.gateway.platform.Feature;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.sqlclient.Pool;

/**
 * The offline stand-in for Stripe, mounted under {@code /sandbox/stripe} in sandbox mode: the API
 * subset the gateway uses ({@code /v1/…}), the hosted checkout and authentication pages, and
 * signed webhooks. It reports the API version of the stripe-java on the classpath, so events
 * deserialize in the gateway exactly as real ones would.
 */
public final class StripeSandbox implements Feature {
  static final String BASE = "/sandbox/stripe";
  private final StripeApi api;
  private final HostedPages pages;
  private final WebhookSender webhooks;
  private final TestControl control;

  /** {@code controlKey} opens {@code /_test/…}; the Stripe-shaped API takes the configured secret key. */
  public StripeSandbox(Vertx vertx, Pool pool, StripeConfig config, String publicBase, String controlKey) {
    StripeStore store = new StripeStore(pool, Stripe.API_VERSION);
    Charges charges = new Charges(store, publicBase + BASE + "/authenticate");
    Checkout checkout = new Checkout(store, charges, publicBase + BASE + "/checkout");
    StripeOps ops = new StripeOps(store, charges, checkout);
    this.api = new StripeApi(new StripeHttp(pool, ops, config.secretKey(), Stripe.API_VERSION));
    this.control = new TestControl(new StripeHttp(pool, ops, controlKey, Stripe.API_VERSION), pool);
    this.pages = new HostedPages(store, checkout, charges);
    this.webhooks = new WebhookSender(vertx, pool, config.webhookUrl().toString(), config.webhookSecret());
    webhooks.start();
  }

  @Override
  public Future<Void> close() {
    webhooks.stop();
    return Future.succeededFuture();
  }

  @Override
  public void mount(Router router) {
    api.mount(router, BASE + "/v1");
    pages.mount(router, BASE);
    control.mount(router, BASE + "/_test");
  }
}
