package io.gpurental.gateway.reservations;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

/** {@code /ssh-keys}: the public keys a renter can put on reserved machines. */
final class SshKeysApi {
  private static final String COLUMNS = "id, name, public_key, fingerprint, created_at";
  private final Pool pool;

  SshKeysApi(Pool pool) {
    this.pool = pool;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listSshKeys").addHandler(this::list);
    api.getRoute("createSshKey").addHandler(this::create);
    api.getRoute("deleteSshKey").addHandler(this::delete);
  }

  private void list(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    pool.preparedQuery("SELECT " + COLUMNS + " FROM ssh_keys WHERE account_id = $1 ORDER BY created_at DESC, id DESC")
        .execute(Tuple.of(caller.accountId()))
        .onSuccess(rows -> {
          JsonArray data = new JsonArray();
          rows.forEach(row -> data.add(json(row)));
          ctx.json(new JsonObject().put("data", data).putNull("next_cursor"));
        })
        .onFailure(ctx::fail);
  }

  private void create(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    JsonObject body = ctx.body().asJsonObject();
    SshPublicKey key = SshPublicKey.parse(body.getString("public_key"), "#/public_key");
    pool.preparedQuery("INSERT INTO ssh_keys (id, account_id, name, public_key, fingerprint)"
            + " VALUES ($1, $2, $3, $4, $5) RETURNING " + COLUMNS)
        .execute(Tuple.of(Ids.newId("key"), caller.accountId(), body.getString("name").trim(), key.text(),
            key.fingerprint()))
        .onSuccess(rows -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .end(json(rows.iterator().next()).encode()))
        .onFailure(failure -> ctx.fail(failure instanceof PgException pg && "23505".equals(pg.getSqlState())
            ? new Conflict("You already saved this key (" + key.fingerprint() + ").") : failure));
  }

  private void delete(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    String id = ctx.pathParam("key_id");
    pool.preparedQuery("DELETE FROM ssh_keys WHERE id = $1 AND account_id = $2 RETURNING id")
        .execute(Tuple.of(id, caller.accountId()))
        .onSuccess(rows -> {
          if (rows.size() == 0) {
            ctx.fail(new NotFound("You have no SSH key " + id + "."));
          } else {
            ctx.response().setStatusCode(204).end();
          }
        })
        .onFailure(ctx::fail);
  }

  private static JsonObject json(Row row) {
    String text = row.getString("public_key");
    return new JsonObject()
        .put("id", row.getString("id"))
        .put("name", row.getString("name"))
        .put("type", text.substring(0, text.indexOf(' ')))
        .put("fingerprint", row.getString("fingerprint"))
        .put("public_key", text)
        .put("created_at", row.getOffsetDateTime("created_at").toInstant().toString());
  }
}
