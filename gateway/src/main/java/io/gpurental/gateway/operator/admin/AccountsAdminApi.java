package io.gpurental.gateway.operator.admin;

import io.gpurental.gateway.auth.AccountAdmin;
import io.gpurental.gateway.auth.AdminAccount;
import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.QueryNumbers;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.Optional;

/** {@code /operator/accounts…}: search accounts, grant or revoke operator, suspend and lift (auth's port). */
final class AccountsAdminApi {
  private static final int DEFAULT_LIMIT = 20;
  private final AccountAdmin accounts;

  AccountsAdminApi(AccountAdmin accounts) {
    this.accounts = accounts;
  }

  void bind(RouterBuilder api) {
    api.getRoute("listOperatorAccounts").addHandler(this::search);
    api.getRoute("grantOperatorRole").addHandler(ctx -> answer(ctx,
        accounts.grantOperator(actor(ctx), ctx.pathParam("account_id"))));
    api.getRoute("revokeOperatorRole").addHandler(ctx -> answer(ctx,
        accounts.revokeOperator(actor(ctx), ctx.pathParam("account_id"))));
    api.getRoute("suspendAccount").addHandler(ctx -> answer(ctx, accounts.suspend(actor(ctx),
        ctx.pathParam("account_id"), ctx.body().asJsonObject().getString("reason").trim())));
    api.getRoute("unsuspendAccount").addHandler(ctx -> answer(ctx,
        accounts.lift(actor(ctx), ctx.pathParam("account_id"))));
  }

  private void search(RoutingContext ctx) {
    int limit = QueryNumbers.limit(ctx, DEFAULT_LIMIT);
    Optional<Page.Position> after = Optional.ofNullable(ctx.request().getParam("cursor")).map(Page::decode);
    accounts.search(ctx.request().getParam("q"), after, limit)
        .onSuccess(found -> ctx.json(Page.of(found, limit, AccountsAdminApi::json,
            account -> Page.encode(account.createdAt(), account.id()))))
        .onFailure(ctx::fail);
  }

  private static void answer(RoutingContext ctx, Future<AdminAccount> change) {
    change.onSuccess(account -> ctx.json(json(account))).onFailure(ctx::fail);
  }

  private static String actor(RoutingContext ctx) {
    return Principal.required(ctx).accountId();
  }

  static JsonObject json(AdminAccount account) {
    JsonArray identities = new JsonArray();
    account.identities().forEach(identity -> identities.add(new JsonObject().put("provider", identity.provider())
        .put("login", identity.login()).put("email", identity.email()).put("email_verified", identity.emailVerified())
        .put("last_sign_in_at", identity.lastSignInAt() == null ? null : identity.lastSignInAt().toInstant().toString())));
    return new JsonObject()
        .put("id", account.id())
        .put("display_name", account.displayName())
        .put("primary_email", account.primaryEmail())
        .put("roles", new JsonArray(account.roles().stream().sorted().toList()))
        .put("operator", new JsonObject().put("granted", account.operator()).put("by_config", account.operatorByConfig()))
        .put("suspension", account.suspension().map(s -> s.json().put("by", s.by())).orElse(null))
        .put("identities", identities)
        .put("created_at", account.createdAt().toInstant().toString());
  }
}
