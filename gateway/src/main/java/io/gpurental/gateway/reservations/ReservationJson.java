package io.gpurental.gateway.reservations;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.OffsetDateTime;
import java.util.Arrays;

/** The API shape of a reservation row. */
final class ReservationJson {
  private ReservationJson() {}

  private static JsonObject payment(Row row) {
    JsonObject payment = new JsonObject().put("method", row.getString("payment_method"));
    Object stored = row.getValue("payment");
    if (stored != null) {
      JsonObject details = stored instanceof JsonObject json ? json : new JsonObject(String.valueOf(stored));
      payment.put("id", details.getString("id")).put("status", details.getString("status"))
          .put("checkout_url", details.getString("checkout_url"))
          .put("amount_refunded", details.getLong("amount_refunded"));
    }
    return payment;
  }

  static JsonObject of(Row row) {
    OffsetDateTime start = row.getOffsetDateTime("start_at");
    OffsetDateTime end = row.getOffsetDateTime("end_at");
    JsonArray events = new JsonArray();
    Object raw = row.getValue("events");
    JsonArray stored = raw instanceof JsonArray array ? array : new JsonArray(String.valueOf(raw));
    stored.forEach(e -> {
      JsonObject event = (JsonObject) e;
      events.add(new JsonObject().put("at", OffsetDateTime.parse(event.getString("at")).toInstant().toString())
          .put("from", event.getString("from")).put("to", event.getString("to")).put("cause", event.getString("cause")));
    });
    return new JsonObject()
        .put("id", row.getString("id"))
        .put("status", row.getString("status"))
        .put("account_id", row.getString("account_id"))
        .put("offer_id", row.getString("offer_id"))
        .put("host_id", row.getString("host_id"))
        .put("gpu_count", row.getInteger("gpu_count"))
        .put("gpu_indexes", new JsonArray(Arrays.asList(row.getArrayOfIntegers("gpu_indexes"))))
        .put("start", start.toInstant().toString())
        .put("end", end.toInstant().toString())
        .put("hours", (int) java.time.Duration.between(start, end).toHours())
        .put("hold_expires_at", row.getOffsetDateTime("hold_expires_at") == null ? null
            : row.getOffsetDateTime("hold_expires_at").toInstant().toString())
        .put("price", row.getJsonObject("price"))
        .put("payment", payment(row))
        .put("ssh", new JsonObject().put("fingerprint", row.getString("ssh_fingerprint"))
            .put("endpoint", row.getString("ssh_endpoint")))
        .put("created_at", row.getOffsetDateTime("created_at").toInstant().toString())
        .put("events", events);
  }
}
