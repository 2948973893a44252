package io.gpurental.gateway.auth;

import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.util.List;
import java.util.Optional;

/**
 * The operator's port into auth: find accounts, grant or revoke the operator role, suspend and
 * lift suspensions. Every change is audited in its transaction and announced on
 * {@link CredentialEvents#ADDRESS} after commit, so open event streams re-check at once; the next
 * request of the account is judged on what is stored (no cache), so a change takes effect there.
 * An operator can neither demote nor suspend themselves (someone must be left who can undo it). A
 * config-listed operator's role cannot be revoked here: config renews it at every sign-in, so it
 * is refused with 409 naming the settings; suspending the account stops it at once instead.
 */
public final class AccountAdmin {
  private final Vertx vertx;
  private final AccountRepository accounts;
  private final AccountAdminRepository admin;

  AccountAdmin(Vertx vertx, Pool pool, AccountRepository accounts, ConfigRoles config) {
    this.vertx = vertx;
    this.accounts = accounts;
    this.admin = new AccountAdminRepository(pool, config);
  }

  /** Accounts matching {@code text} (name, email, id or provider login; all when null), newest first, limit + 1. */
  public Future<List<AdminAccount>> search(String text, Optional<Page.Position> after, int limit) {
    return admin.search(text == null || text.isBlank() ? null : text.trim(), after, limit);
  }

  public Future<AdminAccount> get(String accountId) {
    return admin.find(accountId).map(found -> found.orElseThrow(() -> new NotFound("No account " + accountId + ".")));
  }

  public Future<AdminAccount> grantOperator(String actorId, String accountId) {
    return accounts.grantRole(actorId, accountId, Roles.OPERATOR).compose(found -> changed(found, accountId));
  }

  public Future<AdminAccount> revokeOperator(String actorId, String accountId) {
    return refuseSelf(actorId, accountId, "revoke your own operator role").compose(v -> get(accountId)).compose(account -> {
      if (account.operatorByConfig()) {
        throw new Conflict(accountId + " is an operator by config (auth.operators.github_logins or"
            + " auth.operators.emails), which renews the role at every sign-in: remove it there, or suspend the"
            + " account to stop it now.");
      }
      return accounts.revokeRole(actorId, accountId, Roles.OPERATOR).compose(found -> changed(found, accountId));
    });
  }

  public Future<AdminAccount> suspend(String actorId, String accountId, String reason) {
    return refuseSelf(actorId, accountId, "suspend your own account").compose(v -> get(accountId)).compose(account -> admin.suspend(actorId, accountId, reason)).compose(done -> {
      if (!done) {
        throw new Conflict(accountId + " is suspended already; lift the suspension first to give another reason.");
      }
      return changed(true, accountId);
    });
  }

  public Future<AdminAccount> lift(String actorId, String accountId) {
    return get(accountId).compose(account -> admin.lift(actorId, accountId)).compose(done -> {
      if (!done) {
        throw new Conflict(accountId + " is not suspended.");
      }
      return changed(true, accountId);
    });
  }

  private Future<AdminAccount> changed(boolean found, String accountId) {
    if (!found) {
      throw new NotFound("No account " + accountId + ".");
    }
    CredentialEvents.changed(vertx, accountId);
    return get(accountId);
  }

  private static Future<Void> refuseSelf(String actorId, String accountId, String what) {
    return actorId.equals(accountId) ? Future.failedFuture(new Conflict("You cannot " + what + "; another operator can."))
        : Future.succeededFuture();
  }
}
