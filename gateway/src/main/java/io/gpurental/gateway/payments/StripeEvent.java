package io.gpurental.gateway.payments;

import com.stripe.model.Event;
import com.stripe.model.StripeObject;

/**
 * A Stripe event whose data object stripe-java has already deserialized, on a worker thread:
 * what {@link PaymentEvents} reads from it is plain fields, with no Gson left to run on an event
 * loop. {@code object} is null when stripe-java could not read it (e.g. another API version).
 */
record StripeEvent(String id, String type, String apiVersion, StripeObject object) {
  /** Reads the event's data object (Gson): call it on a worker thread. */
  static StripeEvent read(Event event) {
    StripeThreads.note(StripeThreads.Work.EVENT_DATA, "reading the event " + event.getId());
    return new StripeEvent(event.getId(), event.getType(), event.getApiVersion(),
        event.getDataObjectDeserializer().getObject().orElse(null));
  }
}
