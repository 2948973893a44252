package io.gpurental.gateway.reservations;

import io.gpurental.gateway.payments.Refunds;
import io.gpurental.gateway.platform.Money;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The API shape of a reservation row. */
final class ReservationJson {
  /** How {@code ssh_endpoint} is stored: user@host:port. */
  private static final Pattern ENDPOINT = Pattern.compile("([^@]+)@(.+):(\\d+)");

  private ReservationJson() {}

  static JsonObject of(Row row, RefundPolicy policy) {
    OffsetDateTime start = row.getOffsetDateTime("start_at");
    OffsetDateTime end = row.getOffsetDateTime("end_at");
    String status = row.getString("status");
    String currency = row.getString("currency");
    return new JsonObject()
        .put("id", row.getString("id"))
        .put("status", status)
        .put("account_id", row.getString("account_id"))
        .put("offer_id", row.getString("offer_id"))
        .put("host_id", row.getString("host_id"))
        .put("gpu_count", row.getInteger("gpu_count"))
        .put("gpu_indexes", new JsonArray(Arrays.asList(row.getArrayOfIntegers("gpu_indexes"))))
        .put("start", start.toInstant().toString())
        .put("end", end.toInstant().toString())
        .put("hours", (int) Duration.between(start, end).toHours())
        .put("hold_expires_at", instant(row.getOffsetDateTime("hold_expires_at")))
        .put("price", row.getJsonObject("price"))
        .put("payment", payment(row, currency))
        .put("cancellation", cancellation(row, policy, status, start, end, currency))
        .put("extensions", extensions(row))
        .put("ssh", ssh(row))
        .put("created_at", row.getOffsetDateTime("created_at").toInstant().toString())
        .put("events", events(row));
  }

  private static JsonObject payment(Row row, String currency) {
    JsonObject payment = new JsonObject().put("method", row.getString("payment_method"));
    JsonObject details = json(row.getValue("payment"));
    if (details != null) {
      payment.put("id", details.getString("id")).put("status", details.getString("status"))
          .put("checkout_url", "pending".equals(details.getString("status")) ? details.getString("checkout_url") : null)
          .put("failure_message", details.getString("failure_message"));
    }
    long refunded = 0;
    JsonArray refunds = new JsonArray();
    for (Object entry : array(row.getValue("refunds"))) {
      JsonObject refund = (JsonObject) entry;
      if ("succeeded".equals(refund.getString("status"))) {
        refunded += refund.getLong("amount");
      }
      refunds.add(Refunds.toApi(refund));
    }
    return payment.put("amount_paid", new Money(row.getLong("amount_captured"), currency).toJson())
        .put("amount_refunded", new Money(refunded, currency).toJson()).put("refunds", refunds);
  }

  /** What cancelling now would refund, by the configured policy, of what is paid and not yet refunded. */
  private static JsonObject cancellation(Row row, RefundPolicy policy, String status, OffsetDateTime start,
      OffsetDateTime end, String currency) {
    boolean paid = Lifecycle.PAID_AND_LIVE.contains(status);
    boolean allowed = paid || Lifecycle.PENDING_PAYMENT.equals(status);
    RefundPolicy.Refund refund = paid
        ? policy.refundFor(kept(row), start.toInstant(), end.toInstant(), Instant.now())
        : new RefundPolicy.Refund(0, 0, 0);
    return new JsonObject().put("allowed", allowed)
        .put("refund", new Money(refund.amount(), currency).toJson())
        .put("fee", new Money(refund.fee(), currency).toJson())
        .put("policy", policy.describe());
  }

  /** Captured minus every refund not failed (pending ones are already promised). */
  private static long kept(Row row) {
    long promised = 0;
    for (Object entry : array(row.getValue("refunds"))) {
      JsonObject refund = (JsonObject) entry;
      if (!"failed".equals(refund.getString("status"))) {
        promised += refund.getLong("amount");
      }
    }
    return row.getLong("amount_captured") - promised;
  }

  private static JsonArray extensions(Row row) {
    JsonArray extensions = new JsonArray();
    for (Object entry : array(row.getValue("extensions"))) {
      JsonObject x = (JsonObject) entry;
      extensions.add(new JsonObject().put("id", x.getString("id")).put("hours", x.getInteger("hours"))
          .put("start", timestamp(x.getString("start"))).put("end", timestamp(x.getString("end")))
          .put("status", x.getString("status")).put("hold_expires_at", timestamp(x.getString("hold_expires_at")))
          .put("total", new Money(x.getLong("amount"), x.getString("currency")).toJson())
          .put("checkout_url", "pending_payment".equals(x.getString("status")) ? x.getString("checkout_url") : null));
    }
    return extensions;
  }

  private static JsonObject ssh(Row row) {
    JsonObject ssh = new JsonObject().put("fingerprint", row.getString("ssh_fingerprint"));
    String stored = row.getString("ssh_endpoint");
    Matcher endpoint = stored == null ? null : ENDPOINT.matcher(stored);
    if (endpoint == null || !endpoint.matches() || !Lifecycle.RUNNING.equals(row.getString("status"))) {
      return ssh.putNull("endpoint").putNull("user").putNull("command").putNull("host_key_fingerprint")
          .putNull("known_hosts");
    }
    return ssh.put("endpoint", endpoint.group(2) + ":" + endpoint.group(3)).put("user", endpoint.group(1))
        .put("command", "ssh -p " + endpoint.group(3) + " " + endpoint.group(1) + "@" + endpoint.group(2))
        .put("host_key_fingerprint", row.getString("ssh_host_key_fingerprint"))
        .put("known_hosts", row.getString("ssh_known_hosts"));
  }

  private static JsonArray events(Row row) {
    JsonArray events = new JsonArray();
    for (Object e : array(row.getValue("events"))) {
      JsonObject event = (JsonObject) e;
      events.add(new JsonObject().put("at", timestamp(event.getString("at")))
          .put("from", event.getString("from")).put("to", event.getString("to")).put("cause", event.getString("cause")));
    }
    return events;
  }

  private static String instant(OffsetDateTime time) {
    return time == null ? null : time.toInstant().toString();
  }

  private static String timestamp(String postgresJson) {
    return postgresJson == null ? null : OffsetDateTime.parse(postgresJson).toInstant().toString();
  }

  private static JsonObject json(Object value) {
    return value == null ? null : value instanceof JsonObject object ? object : new JsonObject(String.valueOf(value));
  }

  private static JsonArray array(Object value) {
    return value instanceof JsonArray array ? array : new JsonArray(String.valueOf(value));
  }
}
