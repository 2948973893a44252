package io.gpurental.bench.baseline;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** The baseline's handlers: one SQL round (or one transaction) and JSON, nothing else. */
final class BareRoutes {
  private static final long FEE_BPS = 300;
  private final Pool pool;

  BareRoutes(Pool pool) {
    this.pool = pool;
  }

  /** The floor for any answer from the database: one row by its primary key, as JSON. */
  void db(RoutingContext ctx) {
    pool.preparedQuery(BareSql.ONE_ROW).execute(Tuple.of(ctx.request().getParam("id")))
        .map(rows -> rows.size() == 0 ? new JsonObject() : rows.iterator().next().toJson())
        .onSuccess(ctx::json).onFailure(ctx::fail);
  }

  /** The catalog search for the default window (now, one hour), every column as JSON. */
  void offers(RoutingContext ctx) {
    OffsetDateTime start = OffsetDateTime.now(ZoneOffset.UTC);
    pool.preparedQuery(BareSql.OFFERS).execute(offerParams(start, 1, null))
        .map(rows -> new JsonObject().put("data", json(rows)).putNull("next_cursor"))
        .onSuccess(ctx::json).onFailure(ctx::fail);
  }

  /** The offer's rate and free GPUs for the window, priced with the platform fee. */
  void quote(RoutingContext ctx) {
    JsonObject request = ctx.body().asJsonObject();
    int gpus = request.getInteger("gpu_count");
    int hours = request.getInteger("hours");
    OffsetDateTime start = OffsetDateTime.now(ZoneOffset.UTC);
    pool.preparedQuery(BareSql.QUOTE_OFFER).execute(offerParams(start, hours, request.getString("offer_id")))
        .map(rows -> {
          Row offer = rows.iterator().next();
          long base = offer.getLong("price_per_gpu_hour") * gpus * hours;
          long fee = (base * FEE_BPS + 5_000) / 10_000;
          return new JsonObject().put("offer_id", offer.getString("id")).put("gpu_count", gpus).put("hours", hours)
              .put("start", start.toString()).put("total", new JsonObject().put("amount", base + fee)
                  .put("currency", offer.getString("currency")));
        })
        .onSuccess(quote -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .end(quote.toBuffer()))
        .onFailure(ctx::fail);
  }

  /** The host of the credential, then its heartbeat and telemetry samples in one transaction. */
  void heartbeat(RoutingContext ctx) {
    String credential = ctx.request().getHeader("Authorization").substring("Bearer ".length());
    JsonObject body = ctx.body().asJsonObject();
    pool.preparedQuery(BareSql.HOST_OF_CREDENTIAL).execute(Tuple.of(Buffer.buffer(sha256(credential))))
        .compose(rows -> {
          if (rows.size() == 0) {
            ctx.response().setStatusCode(401).end();
            return Future.succeededFuture();
          }
          String hostId = rows.iterator().next().getString(0);
          return record(hostId, body).onSuccess(v -> ctx.json(new JsonObject()
              .put("heartbeat_interval_seconds", 10).put("desired_version", 0)));
        })
        .onFailure(ctx::fail);
  }

  private Future<Void> record(String hostId, JsonObject body) {
    JsonObject t = body.getJsonObject("telemetry");
    List<Tuple> gpus = new ArrayList<>();
    for (Object o : t.getJsonArray("gpus")) {
      JsonObject g = (JsonObject) o;
      gpus.add(Tuple.of(hostId, g.getInteger("index"), g.getDouble("temperature_c"), g.getDouble("power_draw_w"),
          g.getDouble("utilization_pct"), g.getDouble("memory_used_mib"), g.getLong("ecc_uncorrected"),
          g.getBoolean("remapped_rows_failure")));
    }
    return pool.withTransaction(tx -> tx.preparedQuery(BareSql.HEARTBEAT)
        .execute(Tuple.of(hostId, body.getString("agent_version"), t))
        .compose(v -> tx.preparedQuery(BareSql.HOST_SAMPLE).execute(Tuple.of(hostId, t.getDouble("power_w"),
            t.getString("power_source"), t.getDouble("disk_free_gb"), t.getString("disk_health"),
            t.getDouble("load_1m"), t.getDouble("rtt_ms"))))
        .compose(v -> tx.preparedQuery(BareSql.GPU_SAMPLE).executeBatch(gpus))).mapEmpty();
  }

  /**
   * The economics report's reads over the 30 days up to the next whole hour, as JSON: the range's
   * hosts and cost periods, the same since the first offer opened (payback to date), the series.
   */
  void economics(RoutingContext ctx) {
    OffsetDateTime to = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS).plusHours(1);
    OffsetDateTime from = to.minusDays(30);
    Future<JsonObject> range = hostsAndCosts(Tuple.of(from, to));
    Future<JsonObject> toDate = pool.query(EconomicsSql.FIRST_OPENED).execute().compose(rows -> {
      OffsetDateTime first = rows.iterator().next().getOffsetDateTime(0);
      return hostsAndCosts(Tuple.of(first == null || first.isAfter(from) ? from : first, to));
    });
    Future<RowSet<Row>> days = pool.preparedQuery(EconomicsSql.SERIES).execute(Tuple.of(from, to));
    Future.all(range, toDate, days)
        .map(all -> new JsonObject().put("from", from.toString()).put("to", to.toString())
            .put("range", range.result()).put("to_date", toDate.result()).put("series", json(days.result())))
        .onSuccess(ctx::json).onFailure(ctx::fail);
  }

  private Future<JsonObject> hostsAndCosts(Tuple range) {
    return pool.preparedQuery(EconomicsSql.COST_SEGMENTS).execute(range)
        .compose(costs -> pool.preparedQuery(EconomicsSql.HOSTS).execute(range)
            .map(hosts -> new JsonObject().put("hosts", json(hosts)).put("costs", json(costs))));
  }

  private static Tuple offerParams(OffsetDateTime start, int hours, String offerId) {
    return Tuple.tuple().addOffsetDateTime(start).addOffsetDateTime(start.plusHours(hours))
        .addString(null).addInteger(null).addString(null).addString(null).addString(null).addLong(null)
        .addString(offerId);
  }

  private static JsonArray json(RowSet<Row> rows) {
    JsonArray data = new JsonArray();
    rows.forEach(row -> data.add(row.toJson()));
    return data;
  }

  private static byte[] sha256(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
