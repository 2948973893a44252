package io.gpurental.gateway.auth;

import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/** {@code GET /me} and the operator's role administration. */
final class AccountApi {
  private final Vertx vertx;
  private final AccountRepository accounts;
  private final AccountAdmin admin;

  AccountApi(Vertx vertx, AccountRepository accounts, AccountAdmin admin) {
    this.vertx = vertx;
    this.accounts = accounts;
    this.admin = admin;
  }

  void bind(RouterBuilder api) {
    api.getRoute("getMe").addHandler(this::me);
    api.getRoute("grantRole").addHandler(ctx -> changeRole(ctx, true));
    api.getRoute("revokeRole").addHandler(ctx -> changeRole(ctx, false));
  }

  private void me(RoutingContext ctx) {
    Principal caller = Principal.required(ctx);
    accounts.describe(caller.accountId()).onSuccess(account -> {
      if (account.isEmpty()) {
        ctx.fail(new NotFound("This account no longer exists."));
        return;
      }
      JsonArray scopes = new JsonArray();
      caller.scopes().forEach(scope -> scopes.add(scope.id()));
      ctx.json(account.get()
          .put("roles", new JsonArray(caller.roles().stream().sorted().toList()))
          .put("scopes", scopes)
          .put("auth", caller.method().id())
          .put("csrf_token", caller.method() == Principal.Method.SESSION ? Sessions.csrfToken(ctx).orElse(null) : null));
    }).onFailure(ctx::fail);
  }

  private void changeRole(RoutingContext ctx, boolean grant) {
    Principal caller = Principal.required(ctx);
    String accountId = ctx.pathParam("account_id");
    String role = ctx.pathParam("role");
    if (Roles.OPERATOR.equals(role)) { // the same rules as /operator/accounts/{id}/roles/operator
      (grant ? admin.grantOperator(caller.accountId(), accountId) : admin.revokeOperator(caller.accountId(), accountId))
          .onSuccess(account -> ctx.response().setStatusCode(204).end()).onFailure(ctx::fail);
      return;
    }
    (grant ? accounts.grantRole(caller.accountId(), accountId, role)
        : accounts.revokeRole(caller.accountId(), accountId, role))
        .onSuccess(found -> {
          if (found) {
            CredentialEvents.changed(vertx, accountId);
            ctx.response().setStatusCode(204).end();
          } else {
            ctx.fail(new NotFound("No account " + accountId + "."));
          }
        })
        .onFailure(ctx::fail);
  }
}
