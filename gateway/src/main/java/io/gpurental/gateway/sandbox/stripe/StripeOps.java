package io.gpurental.gateway.sandbox.stripe;

import io.vertx.sqlclient.SqlClient;

/**
 * What a Stripe operation works with: the store, charges and checkout, all on one SQL client, so
 * that an operation run {@link #on} a transaction's connection writes everything in it or nothing.
 */
record StripeOps(StripeStore store, Charges charges, Checkout checkout) {
  StripeOps on(SqlClient client) {
    StripeStore bound = store.on(client);
    Charges boundCharges = charges.on(bound);
    return new StripeOps(bound, boundCharges, checkout.on(bound, boundCharges));
  }
}
