package io.gpurental.gateway.payments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.stripe.exception.ApiConnectionException;
import com.stripe.exception.ApiException;
import com.stripe.exception.CardException;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.RateLimitException;
import io.gpurental.gateway.platform.errors.ServiceUnavailable;
import org.junit.jupiter.api.Test;

/** Stripe failing on its side answers 503 (retry later); Stripe refusing the request itself does not. */
class StripeOutagesTest {
  @Test
  void stripeUnreachableOverloadedOrFailingIsAnOutage() {
    for (Exception failure : new Exception[] {new ApiConnectionException("connect timed out"),
        new ApiException("An unknown error occurred", "req_1", null, 500, null),
        new ApiException("no status", "req_2", null, null, null),
        new RateLimitException("slow down", "req_3", null, null, 429, null)}) {
      Throwable mapped = StripeGateway.unavailableOr(failure);
      assertTrue(mapped instanceof ServiceUnavailable, failure + " -> " + mapped);
      assertEquals(503, ((ServiceUnavailable) mapped).status());
    }
  }

  @Test
  void stripeRefusingTheRequestStaysWhatItIs() {
    Exception declined = new CardException("declined", "req_4", "card_declined", null, "generic_decline", null, 402, null);
    Exception invalid = new InvalidRequestException("bad param", "amount", "req_5", null, 400, null);
    assertSame(declined, StripeGateway.unavailableOr(declined));
    assertSame(invalid, StripeGateway.unavailableOr(invalid));
  }
}
