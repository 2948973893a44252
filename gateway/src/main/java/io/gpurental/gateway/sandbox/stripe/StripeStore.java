package io.gpurental.gateway.sandbox.stripe;

import io.gpurental.gateway.platform.Ids;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

/**
 * The sandbox's objects and events in the {@code sandbox_stripe} schema, as Stripe-shaped JSON. A
 * store works on the pool (each statement on its own) or, through {@link #on}, inside one
 * request's transaction.
 */
final class StripeStore {
  private final SqlClient pool;
  private final String apiVersion;

  StripeStore(SqlClient pool, String apiVersion) {
    this.pool = pool;
    this.apiVersion = apiVersion;
  }

  /** The same store working through {@code client} (a connection inside a transaction). */
  StripeStore on(SqlClient client) {
    return new StripeStore(client, apiVersion);
  }

  static String newId(String prefix) {
    return prefix + "_" + Ids.randomBase62(24);
  }

  static long now() {
    return System.currentTimeMillis() / 1000;
  }

  Future<JsonObject> insert(JsonObject object) {
    return pool.preparedQuery("INSERT INTO sandbox_stripe.objects (id, type, data, created) VALUES ($1, $2, $3, $4)")
        .execute(Tuple.of(object.getString("id"), object.getString("object"), object, object.getLong("created")))
        .map(object);
  }

  /**
   * Writes the object only if its stored status is still {@code expectedStatus}; fails with
   * Stripe's unexpected-state error otherwise (two requests racing on one object: one wins).
   */
  Future<JsonObject> updateIf(JsonObject object, String expectedStatus) {
    return pool.preparedQuery("UPDATE sandbox_stripe.objects SET data = $2 WHERE id = $1 AND data ->> 'status' = $3"
            + " RETURNING id")
        .execute(Tuple.of(object.getString("id"), object, expectedStatus))
        .map(rows -> {
          if (rows.size() == 0) {
            throw StripeError.unexpectedState("This " + object.getString("object") + " is no longer "
                + expectedStatus + "; another request changed it.");
          }
          return object;
        });
  }

  Future<JsonObject> update(JsonObject object) {
    return pool.preparedQuery("UPDATE sandbox_stripe.objects SET data = $2 WHERE id = $1")
        .execute(Tuple.of(object.getString("id"), object)).map(object);
  }

  /** The object of this type with this id, or Stripe's 404. */
  Future<JsonObject> get(String id, String type, String param) {
    return pool.preparedQuery("SELECT data FROM sandbox_stripe.objects WHERE id = $1 AND type = $2")
        .execute(Tuple.of(id == null ? "" : id, type))
        .map(rows -> {
          if (rows.size() == 0) {
            throw StripeError.notFound(id, param);
          }
          return rows.iterator().next().getJsonObject("data");
        });
  }

  /** Any stored object with this id (for expansion), or Stripe's 404. */
  Future<JsonObject> getAny(String id) {
    return pool.preparedQuery("SELECT data FROM sandbox_stripe.objects WHERE id = $1").execute(Tuple.of(id))
        .map(rows -> {
          if (rows.size() == 0) {
            throw StripeError.notFound(id, "expand");
          }
          return rows.iterator().next().getJsonObject("data");
        });
  }

  /** Newest first; {@code starting_after} pages like Stripe's lists. */
  Future<JsonObject> list(String type, String customer, int limit, String startingAfter, String url) {
    String sql = "SELECT data FROM sandbox_stripe.objects WHERE type = $1"
        + " AND ($2::text IS NULL OR data ->> 'customer' = $2)"
        + " AND ($3::text IS NULL OR (created, id) < (SELECT created, id FROM sandbox_stripe.objects WHERE id = $3))"
        + " ORDER BY created DESC, id DESC LIMIT $4";
    return pool.preparedQuery(sql).execute(Tuple.of(type, customer, startingAfter, limit + 1))
        .map(rows -> page(rows, limit, url));
  }

  /** Records an event (its envelope as Stripe sends it) for listing and webhook delivery. */
  Future<JsonObject> event(String type, JsonObject object) {
    JsonObject event = new JsonObject()
        .put("id", newId("evt"))
        .put("object", "event")
        .put("api_version", apiVersion)
        .put("created", now())
        .put("data", new JsonObject().put("object", object))
        .put("livemode", false)
        .put("pending_webhooks", 1)
        .put("request", new JsonObject().putNull("id").putNull("idempotency_key"))
        .put("type", type);
    return pool.preparedQuery("INSERT INTO sandbox_stripe.events (id, type, created, body) VALUES ($1, $2, $3, $4)")
        .execute(Tuple.of(event.getString("id"), type, event.getLong("created"), event)).map(event);
  }

  Future<JsonObject> getEvent(String id) {
    return pool.preparedQuery("SELECT body FROM sandbox_stripe.events WHERE id = $1").execute(Tuple.of(id))
        .map(rows -> {
          if (rows.size() == 0) {
            throw StripeError.notFound(id, "event");
          }
          return rows.iterator().next().getJsonObject("body");
        });
  }

  Future<JsonObject> listEvents(String type, int limit, String startingAfter) {
    String sql = "SELECT body AS data FROM sandbox_stripe.events WHERE ($1::text IS NULL OR type = $1)"
        + " AND ($2::text IS NULL OR (created, id) < (SELECT created, id FROM sandbox_stripe.events WHERE id = $2))"
        + " ORDER BY created DESC, id DESC LIMIT $3";
    return pool.preparedQuery(sql).execute(Tuple.of(type, startingAfter, limit + 1))
        .map(rows -> page(rows, limit, "/v1/events"));
  }

  private static JsonObject page(io.vertx.sqlclient.RowSet<Row> rows, int limit, String url) {
    JsonArray data = new JsonArray();
    for (Row row : rows) {
      if (data.size() < limit) {
        data.add(Objects.visible(row.getJsonObject("data")));
      }
    }
    return new JsonObject().put("object", "list").put("data", data).put("has_more", rows.size() > limit)
        .put("url", url);
  }
}
