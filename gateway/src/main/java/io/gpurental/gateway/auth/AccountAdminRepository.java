package io.gpurental.gateway.auth;

import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The operator's reads of accounts (search, one account) and suspensions, in PostgreSQL. */
final class AccountAdminRepository {
  private static final String SELECT = """
      SELECT a.id, a.display_name, a.primary_email, a.created_at, a.suspended_at, a.suspension_reason,
             a.suspended_by, array(SELECT r.role FROM account_roles r WHERE r.account_id = a.id ORDER BY r.role) AS roles,
             coalesce((SELECT json_agg(json_build_object('provider', i.provider, 'subject', i.subject, 'login', i.login, 'email', i.email,
                         'pinned_subject', (SELECT p.subject FROM operator_login_pins p WHERE p.login = lower(i.login)),
                         'email_verified', i.email_verified, 'last_sign_in_at', i.last_sign_in_at)
                         ORDER BY i.linked_at) FROM identities i WHERE i.account_id = a.id), '[]') AS identities
      FROM accounts a""";
  /** $1: an ILIKE pattern or null (everyone). */
  private static final String SEARCH = SELECT + "\n" + """
       WHERE ($1::text IS NULL OR a.display_name ILIKE $1 OR a.primary_email ILIKE $1 OR a.id = $5
              OR EXISTS (SELECT 1 FROM identities i WHERE i.account_id = a.id AND (i.login ILIKE $1 OR i.email ILIKE $1)))
         AND ($2::timestamptz IS NULL OR (a.created_at, a.id) < ($2, $3))
       ORDER BY a.created_at DESC, a.id DESC LIMIT $4""";
  private static final String ONE = SELECT + " WHERE a.id = $1";
  private static final String SUSPEND = """
      UPDATE accounts SET suspended_at = now(), suspension_reason = $2, suspended_by = $3
      WHERE id = $1 AND suspended_at IS NULL RETURNING id""";
  /** Answers the reason it lifted (RETURNING alone would show the new, empty one). */
  private static final String LIFT = """
      WITH lifted AS (SELECT id, suspension_reason FROM accounts WHERE id = $1 AND suspended_at IS NOT NULL FOR UPDATE)
      UPDATE accounts a SET suspended_at = NULL, suspension_reason = NULL, suspended_by = NULL
      FROM lifted WHERE a.id = lifted.id RETURNING lifted.suspension_reason""";

  private final Pool pool;
  private final ConfigRoles config;

  AccountAdminRepository(Pool pool, ConfigRoles config) {
    this.pool = pool;
    this.config = config;
  }

  /** Accounts whose name, email, id or provider login contains {@code text} (all when null), newest first. */
  Future<List<AdminAccount>> search(String text, Optional<Page.Position> after, int limit) {
    String pattern = text == null ? null : "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    Tuple params = Tuple.of(pattern, after.map(Page.Position::createdAt).orElse(null),
        after.map(Page.Position::id).orElse(null), limit + 1, text);
    return pool.preparedQuery(SEARCH).execute(params).map(rows -> {
      List<AdminAccount> accounts = new ArrayList<>();
      rows.forEach(row -> accounts.add(toAccount(row)));
      return accounts;
    });
  }

  Future<Optional<AdminAccount>> find(String accountId) {
    return pool.preparedQuery(ONE).execute(Tuple.of(accountId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(toAccount(rows.iterator().next())));
  }

  /** Suspends the account; false when it was suspended already. Audited in the same transaction. */
  Future<Boolean> suspend(String actorId, String accountId, String reason) {
    return pool.withTransaction(tx -> OperatorQuorum.lock(tx)
        .compose(locked -> tx.preparedQuery(SUSPEND).execute(Tuple.of(accountId, reason, actorId)))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture(false)
            : OperatorQuorum.ensureOneLeft(tx).compose(v -> audit(tx, actorId, "account.suspended", accountId, new JsonObject().put("suspended", false),
                new JsonObject().put("suspended", true).put("reason", reason))).map(true)));
  }

  /** Lifts the account's suspension; false when it was not suspended. Audited in the same transaction. */
  Future<Boolean> lift(String actorId, String accountId) {
    return pool.withTransaction(tx -> tx.preparedQuery(LIFT).execute(Tuple.of(accountId))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture(false)
            : audit(tx, actorId, "account.unsuspended", accountId, new JsonObject().put("suspended", true)
                .put("reason", rows.iterator().next().getString(0)), new JsonObject().put("suspended", false))
                .map(true)));
  }

  private static Future<Void> audit(SqlClient tx, String actorId, String action, String accountId, JsonObject before,
      JsonObject after) {
    return AuditLog.append(tx, "account:" + actorId, action, accountId, before, after);
  }

  private AdminAccount toAccount(Row row) {
    List<AdminAccount.Identity> identities = new ArrayList<>();
    boolean byConfig = false;
    JsonArray stored = (JsonArray) row.getJson("identities");
    for (int i = 0; i < stored.size(); i++) {
      JsonObject identity = stored.getJsonObject(i);
      boolean verified = Boolean.TRUE.equals(identity.getBoolean("email_verified"));
      String lastSignIn = identity.getString("last_sign_in_at");
      identities.add(new AdminAccount.Identity(identity.getString("provider"), identity.getString("login"),
          identity.getString("email"), verified, lastSignIn == null ? null : OffsetDateTime.parse(lastSignIn)));
      byConfig |= config.listsOperator(identity.getString("provider"), identity.getString("subject"),
          identity.getString("login"), verified ? identity.getString("email") : null,
          identity.getString("pinned_subject"));
    }
    return new AdminAccount(row.getString("id"), row.getString("display_name"), row.getString("primary_email"),
        row.getOffsetDateTime("created_at"), identities, Set.of(row.getArrayOfStrings("roles")), byConfig,
        AccountRepository.suspension(row));
  }
}
