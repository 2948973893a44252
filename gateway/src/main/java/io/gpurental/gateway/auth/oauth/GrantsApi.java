package io.gpurental.gateway.auth.oauth;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.function.Consumer;

/** {@code /oauth/grants}: the MCP clients a signed-in person allowed, and revoking them (at once, on every node). */
public final class GrantsApi {
  private final OAuthRepository repository;
  private final Consumer<String> revoked;

  public GrantsApi(OAuthRepository repository, Consumer<String> revoked) {
    this.repository = repository;
    this.revoked = revoked;
  }

  public void bind(RouterBuilder api) {
    api.getRoute("listOAuthGrants").addHandler(ctx -> repository.list(Principal.required(ctx).accountId())
        .onSuccess(grants -> ctx.json(new JsonObject().put("data",
            new JsonArray(grants.stream().map(OAuthRepository.Grant::toJson).toList())).putNull("next_cursor")))
        .onFailure(ctx::fail));
    api.getRoute("revokeOAuthGrant").addHandler(ctx -> {
      String account = Principal.required(ctx).accountId();
      String grantId = ctx.pathParam("grant_id");
      repository.revokeGrant(grantId, account).onSuccess(found -> {
        if (found.isEmpty()) {
          ctx.fail(new NotFound("You have no OAuth grant " + grantId + "."));
        } else {
          revoked.accept(account);
          ctx.response().setStatusCode(204).end();
        }
      }).onFailure(ctx::fail);
    });
  }
}
