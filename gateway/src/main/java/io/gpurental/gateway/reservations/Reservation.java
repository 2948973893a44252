package io.gpurental.gateway.reservations;

import io.gpurental.gateway.platform.Money;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;

/**
 * A reservation as the feature works with it: typed fields, its latest payment, refunds,
 * extensions and history. {@code price} is the quote locked at booking, kept as the document it
 * was shown as (items, total, policy) so that it is shown again exactly.
 */
record Reservation(String id, ReservationStatus status, String accountId, String offerId, String hostId, int gpuCount,
    List<Integer> gpuIndexes, Instant start, Instant end, Instant holdExpiresAt, JsonObject price, String currency,
    String paymentMethod, Payment payment, long amountCaptured, List<Refund> refunds, List<Extension> extensions,
    String sshFingerprint, String sshEndpoint, String sshHostKeyFingerprint, String sshKnownHosts, Instant createdAt,
    List<Event> events, List<Credit> credits, Instant interruptedSince, String interruptedReason, Image image,
    List<PublishedPort> publishedPorts) {

  /** The image the instance runs (template id null: a custom image; the record null: none chosen) and ports asked for. */
  record Image(String templateId, String ref, List<Integer> ports) {}

  /** A container port the running instance publishes, and the host port it is reachable on. */
  record PublishedPort(int containerPort, int hostPort) {}

  /** The reservation's own (not an extension's) latest payment. */
  record Payment(String id, String status, String checkoutUrl, String failureMessage) {}

  /** A refund of the reservation; {@code kind} refund or credit, {@code note} an operator's words (may be null). */
  record Refund(String id, Money amount, String reason, String status, Instant createdAt, String kind, String note) {
    boolean succeeded() {
      return "succeeded".equals(status);
    }

    boolean failed() {
      return "failed".equals(status);
    }
  }

  record Extension(String id, int hours, Instant start, Instant end, String status, Instant holdExpiresAt, Money total,
      String checkoutUrl) {}

  record Event(Instant at, String from, String to, String cause) {}

  /** A credit the reservation earned: what happened between {@code from} and {@code to}, its hours and amount. */
  record Credit(String id, String kind, String reason, Instant from, Instant to, int hours, Money amount,
      List<String> refundIds, Instant createdAt) {}

  /** Captured minus every refund not failed (pending ones are already promised). */
  long amountKept() {
    return amountCaptured - refunds.stream().filter(refund -> !refund.failed()).mapToLong(r -> r.amount().amount()).sum();
  }

  long amountRefunded() {
    return refunds.stream().filter(Refund::succeeded).mapToLong(r -> r.amount().amount()).sum();
  }
}
