package io.gpurental.gateway.reservations;

import io.gpurental.gateway.fleet.SshHosts;
import io.gpurental.gateway.payments.Refunds;
import io.gpurental.gateway.platform.Money;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The API shape of a {@link Reservation}: the only place it becomes JSON. */
final class ReservationJson {
  /** How {@code ssh_endpoint} is stored: user@host:port. */
  private static final Pattern ENDPOINT = Pattern.compile("([^@]+)@(.+):(\\d+)");
  /** The Unix user names agents may report (the contract's pattern). */
  private static final Pattern USER = Pattern.compile("[a-z_][a-z0-9_-]{0,31}");

  private ReservationJson() {}

  static JsonObject of(Reservation r, RefundPolicy policy) {
    return new JsonObject()
        .put("id", r.id())
        .put("status", r.status().id())
        .put("account_id", r.accountId())
        .put("offer_id", r.offerId())
        .put("host_id", r.hostId())
        .put("gpu_count", r.gpuCount())
        .put("gpu_indexes", new JsonArray(r.gpuIndexes()))
        .put("start", r.start().toString())
        .put("end", r.end().toString())
        .put("hours", (int) Duration.between(r.start(), r.end()).toHours())
        .put("hold_expires_at", text(r.holdExpiresAt()))
        .put("price", r.price())
        .put("payment", payment(r))
        .put("cancellation", cancellation(r, policy.bookedWith(r.price().getInteger("cancellation_fee_bps"))))
        .put("extensions", extensions(r))
        .put("ssh", ssh(r))
        .put("image", r.image() == null ? null : new JsonObject().put("template_id", r.image().templateId())
            .put("ref", r.image().ref()).put("ports", new JsonArray(r.image().ports())))
        .put("ports", ports(r))
        .put("credits", credits(r))
        .put("interruption", r.interruptedSince() == null ? null
            : new JsonObject().put("since", r.interruptedSince().toString()).put("reason", r.interruptedReason()))
        .put("created_at", r.createdAt().toString())
        .put("events", events(r));
  }

  /** Every credit, itemized: what happened, when, how many hours, how much, and the refunds that paid it. */
  private static JsonArray credits(Reservation r) {
    JsonArray credits = new JsonArray();
    r.credits().forEach(c -> credits.add(new JsonObject().put("id", c.id()).put("kind", c.kind())
        .put("reason", c.reason()).put("from", c.from().toString()).put("to", c.to().toString())
        .put("hours", c.hours()).put("amount", c.amount().toJson()).put("refund_ids", new JsonArray(c.refundIds()))
        .put("created_at", c.createdAt().toString())));
    return credits;
  }

  private static JsonObject payment(Reservation r) {
    JsonObject payment = new JsonObject().put("method", r.paymentMethod());
    Reservation.Payment latest = r.payment();
    if (latest != null) {
      payment.put("id", latest.id()).put("status", latest.status())
          .put("checkout_url", "pending".equals(latest.status()) ? latest.checkoutUrl() : null)
          .put("failure_message", latest.failureMessage());
    }
    JsonArray refunds = new JsonArray();
    r.refunds().forEach(refund -> refunds.add(Refunds.toApi(refund.id(), refund.amount(), refund.reason(),
        refund.status(), refund.createdAt()).put("kind", refund.kind()).put("note", refund.note())));
    return payment.put("amount_paid", new Money(r.amountCaptured(), r.currency()).toJson())
        .put("amount_refunded", new Money(r.amountRefunded(), r.currency()).toJson()).put("refunds", refunds);
  }

  /** What cancelling now would refund, by the policy it was booked under, of what is paid and not yet refunded. */
  private static JsonObject cancellation(Reservation r, RefundPolicy policy) {
    boolean paid = r.status().paidAndLive();
    boolean allowed = paid || r.status() == ReservationStatus.PENDING_PAYMENT;
    RefundPolicy.Refund refund = paid ? policy.refundFor(r.amountKept(), r.start(), r.end(), Instant.now())
        : new RefundPolicy.Refund(0, 0, 0);
    return new JsonObject().put("allowed", allowed)
        .put("refund", new Money(refund.amount(), r.currency()).toJson())
        .put("fee", new Money(refund.fee(), r.currency()).toJson())
        .put("policy", policy.describe());
  }

  private static JsonArray extensions(Reservation r) {
    JsonArray extensions = new JsonArray();
    r.extensions().forEach(x -> extensions.add(new JsonObject().put("id", x.id()).put("hours", x.hours())
        .put("start", text(x.start())).put("end", text(x.end())).put("status", x.status())
        .put("hold_expires_at", text(x.holdExpiresAt())).put("total", x.total().toJson())
        .put("checkout_url", "pending_payment".equals(x.status()) ? x.checkoutUrl() : null)));
    return extensions;
  }

  private static JsonObject ssh(Reservation r) {
    JsonObject ssh = new JsonObject().put("fingerprint", r.sshFingerprint());
    Matcher endpoint = r.sshEndpoint() == null ? null : ENDPOINT.matcher(r.sshEndpoint());
    // the command and the known_hosts line are built from validated parts only (the agent's
    // report was checked on arrival; this keeps a row stored before that check out of a terminal)
    if (endpoint == null || !endpoint.matches() || r.status() != ReservationStatus.RUNNING
        || !USER.matcher(endpoint.group(1)).matches() || !SshHosts.valid(endpoint.group(2))) {
      return ssh.putNull("endpoint").putNull("user").putNull("command").putNull("host_key_fingerprint")
          .putNull("known_hosts");
    }
    return ssh.put("endpoint", endpoint.group(2) + ":" + endpoint.group(3)).put("user", endpoint.group(1))
        .put("command", "ssh -p " + endpoint.group(3) + " " + endpoint.group(1) + "@" + endpoint.group(2))
        .put("host_key_fingerprint", r.sshHostKeyFingerprint()).put("known_hosts", r.sshKnownHosts());
  }

  /**
   * The ports the running instance publishes besides SSH, each with the address to reach it at
   * (the SSH host, validated like it); empty unless running.
   */
  private static JsonArray ports(Reservation r) {
    JsonArray ports = new JsonArray();
    Matcher endpoint = r.sshEndpoint() == null ? null : ENDPOINT.matcher(r.sshEndpoint());
    if (r.status() != ReservationStatus.RUNNING || endpoint == null || !endpoint.matches()
        || !SshHosts.valid(endpoint.group(2))) {
      return ports;
    }
    String host = endpoint.group(2).contains(":") ? "[" + endpoint.group(2) + "]" : endpoint.group(2);
    r.publishedPorts().forEach(p -> ports.add(new JsonObject().put("container_port", p.containerPort())
        .put("host_port", p.hostPort()).put("address", host + ":" + p.hostPort())));
    return ports;
  }

  private static JsonArray events(Reservation r) {
    JsonArray events = new JsonArray();
    r.events().forEach(e -> events.add(new JsonObject().put("at", text(e.at())).put("from", e.from())
        .put("to", e.to()).put("cause", e.cause())));
    return events;
  }

  private static String text(Instant time) {
    return time == null ? null : time.toString();
  }
}
