package io.gpurental.gateway.reservations;

import io.gpurental.gateway.platform.Money;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** Maps a row of {@link ReservationRepository}'s reservation query to a {@link Reservation}. */
final class ReservationRows {
  private ReservationRows() {}

  static Reservation reservation(Row row) {
    JsonObject payment = object(row.getValue("payment"));
    return new Reservation(row.getString("id"), ReservationStatus.of(row.getString("status")),
        row.getString("account_id"), row.getString("offer_id"), row.getString("host_id"), row.getInteger("gpu_count"),
        Arrays.asList(row.getArrayOfIntegers("gpu_indexes")), instant(row.getOffsetDateTime("start_at")),
        instant(row.getOffsetDateTime("end_at")), instant(row.getOffsetDateTime("hold_expires_at")),
        row.getJsonObject("price"), row.getString("currency"), row.getString("payment_method"),
        payment == null ? null : new Reservation.Payment(payment.getString("id"), payment.getString("status"),
            payment.getString("checkout_url"), payment.getString("failure_message")),
        row.getLong("amount_captured"), list(row.getValue("refunds"), ReservationRows::refund),
        list(row.getValue("extensions"), ReservationRows::extension), row.getString("ssh_fingerprint"),
        row.getString("ssh_endpoint"), row.getString("ssh_host_key_fingerprint"), row.getString("ssh_known_hosts"),
        instant(row.getOffsetDateTime("created_at")),
        list(row.getValue("events"), ReservationRows::event), list(row.getValue("credits"), ReservationRows::credit),
        instant(row.getOffsetDateTime("interrupted_since")), row.getString("interrupted_reason"), image(row),
        row.getValue("published_ports") == null ? List.of()
            : list(row.getValue("published_ports"), p -> new Reservation.PublishedPort(p.getInteger("container_port"),
                p.getInteger("host_port"))));
  }

  private static Reservation.Image image(Row row) {
    String ref = row.getString("image_ref");
    return ref == null ? null : new Reservation.Image(row.getString("image_template_id"), ref,
        Arrays.asList(row.getArrayOfIntegers("image_ports")));
  }

  private static Reservation.Credit credit(JsonObject json) {
    return new Reservation.Credit(json.getString("id"), json.getString("kind"), json.getString("reason"),
        timestamp(json.getString("from")), timestamp(json.getString("to")), json.getInteger("hours"),
        new Money(json.getLong("amount"), json.getString("currency")),
        json.getJsonArray("refund_ids").stream().map(String::valueOf).toList(), timestamp(json.getString("created_at")));
  }

  private static Reservation.Refund refund(JsonObject json) {
    return new Reservation.Refund(json.getString("id"), new Money(json.getLong("amount"), json.getString("currency")),
        json.getString("reason"), json.getString("status"), timestamp(json.getString("created_at")),
        json.getString("kind", "refund"), json.getString("note"));
  }

  private static Reservation.Extension extension(JsonObject json) {
    return new Reservation.Extension(json.getString("id"), json.getInteger("hours"), timestamp(json.getString("start")),
        timestamp(json.getString("end")), json.getString("status"), timestamp(json.getString("hold_expires_at")),
        new Money(json.getLong("amount"), json.getString("currency")), json.getString("checkout_url"));
  }

  private static Reservation.Event event(JsonObject json) {
    return new Reservation.Event(timestamp(json.getString("at")), json.getString("from"), json.getString("to"),
        json.getString("cause"));
  }

  private static <T> List<T> list(Object value, Function<JsonObject, T> map) {
    JsonArray array = value instanceof JsonArray json ? json : new JsonArray(String.valueOf(value));
    return array.stream().map(entry -> map.apply((JsonObject) entry)).toList();
  }

  private static JsonObject object(Object value) {
    return value == null ? null : value instanceof JsonObject json ? json : new JsonObject(String.valueOf(value));
  }

  private static Instant instant(OffsetDateTime time) {
    return time == null ? null : time.toInstant();
  }

  /** A timestamp as PostgreSQL writes it inside JSON. */
  private static Instant timestamp(String postgresJson) {
    return postgresJson == null ? null : OffsetDateTime.parse(postgresJson).toInstant();
  }
}
