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

/** {@code /ssh-keys}: the public keys a renter can put on reserved machines. */
final class SshKeysApi {
  private final SshKeyRepository keys;

  SshKeysApi(SshKeyRepository keys) {
    this.keys = keys;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listSshKeys").addHandler(this::list);
    api.getRoute("createSshKey").addHandler(this::create);
    api.getRoute("deleteSshKey").addHandler(this::delete);
  }

  private void list(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    keys.list(caller.accountId())
        .onSuccess(list -> {
          JsonArray data = new JsonArray();
          list.forEach(key -> data.add(json(key)));
          ctx.json(new JsonObject().put("data", data).putNull("next_cursor"));
        })
        .onFailure(ctx::fail);
  }

  private void create(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    JsonObject body = ctx.body().asJsonObject();
    SshPublicKey key = SshPublicKey.parse(body.getString("public_key"), "#/public_key");
    keys.insert(Ids.newId("key"), caller.accountId(), body.getString("name").trim(), key)
        .onSuccess(saved -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .end(json(saved).encode()))
        .onFailure(failure -> ctx.fail(failure instanceof PgException pg && "23505".equals(pg.getSqlState())
            ? new Conflict("You already saved this key (" + key.fingerprint() + ").") : failure));
  }

  private void delete(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    String id = ctx.pathParam("key_id");
    keys.delete(id, caller.accountId())
        .onSuccess(deleted -> {
          if (!deleted) {
            ctx.fail(new NotFound("You have no SSH key " + id + "."));
          } else {
            ctx.response().setStatusCode(204).end();
          }
        })
        .onFailure(ctx::fail);
  }

  private static JsonObject json(SshKeyRepository.SshKey key) {
    String text = key.publicKey();
    return new JsonObject()
        .put("id", key.id())
        .put("name", key.name())
        .put("type", text.substring(0, text.indexOf(' ')))
        .put("fingerprint", key.fingerprint())
        .put("public_key", text)
        .put("created_at", key.createdAt().toString());
  }
}
