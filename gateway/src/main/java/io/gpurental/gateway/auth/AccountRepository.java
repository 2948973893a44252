package io.gpurental.gateway.auth;

import io.gpurental.gateway.auth.signin.ExternalIdentity;
import io.gpurental.gateway.platform.Futures;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** Accounts, their linked identities and granted roles in PostgreSQL. */
public final class AccountRepository {
  private static final String FIND_BY_IDENTITY =
      "SELECT account_id FROM identities WHERE provider = $1 AND subject = $2";
  private static final String FIND_BY_VERIFIED_EMAIL = """
      SELECT account_id, provider FROM identities
      WHERE email_verified AND lower(email) = lower($1) ORDER BY linked_at LIMIT 1""";
  /**
   * First sign-ins with one verified email take turns: the email is no unique key (an unverified
   * copy may sit on any account), so without the turn two at once would both find it free.
   */
  private static final String EMAIL_TURN =
      "SELECT pg_advisory_xact_lock(hashtextextended('verified-email:' || lower($1), 0))";
  private static final String OTHER_EMAIL_OWNER = """
      SELECT account_id, provider FROM identities
      WHERE email_verified AND lower(email) = lower($1) AND account_id <> $2 ORDER BY linked_at LIMIT 1""";
  private static final String INSERT_ACCOUNT =
      "INSERT INTO accounts (id, display_name, primary_email) VALUES ($1, $2, $3)";
  private static final String INSERT_IDENTITY = """
      INSERT INTO identities (provider, subject, account_id, login, email, email_verified)
      VALUES ($1, $2, $3, $4, $5, $6)""";
  private static final String TOUCH_IDENTITY = """
      UPDATE identities SET login = $3, email = $4, email_verified = $5, last_sign_in_at = now()
      WHERE provider = $1 AND subject = $2""";
  private static final String GRANT_ROLE = """
      INSERT INTO account_roles (account_id, role, granted_by) VALUES ($1, $2, $3)
      ON CONFLICT DO NOTHING""";
  /** Config grants follow config: a role config no longer gives is withdrawn at the next sign-in. */
  private static final String DROP_STALE_CONFIG_ROLES = """
      DELETE FROM account_roles WHERE account_id = $1 AND granted_by = 'config' AND NOT (role = ANY($2))""";
  private static final String REVOKE_ROLE = "DELETE FROM account_roles WHERE account_id = $1 AND role = $2";
  /** The first sign-in of a listed login pins its id; later ones (of any id) change nothing. */
  private static final String PIN_LOGIN = """
      INSERT INTO operator_login_pins (login, subject) VALUES (lower($1), $2) ON CONFLICT (login) DO NOTHING""";
  private static final String PINS = "SELECT login, subject FROM operator_login_pins";
  private static final String ALL_IDENTITIES =
      "SELECT provider, subject, login, email, email_verified FROM identities WHERE account_id = $1";
  private static final String ROLES = "SELECT role FROM account_roles WHERE account_id = $1";
  private static final String ACCESS = """
      SELECT a.suspended_at, a.suspension_reason, a.suspended_by,
             array(SELECT r.role FROM account_roles r WHERE r.account_id = a.id) AS roles
      FROM accounts a WHERE a.id = $1""";
  private static final String ACCOUNT = "SELECT id, display_name, primary_email, created_at FROM accounts WHERE id = $1";
  private static final String ACCOUNT_WITH_IDENTITIES = """
      SELECT a.id, a.display_name, a.primary_email, a.created_at,
             coalesce(json_agg(json_build_object('provider', i.provider, 'login', i.login, 'email', i.email,
                 'linked_at', to_char(i.linked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
               ORDER BY i.linked_at) FILTER (WHERE i.provider IS NOT NULL), '[]') AS identities
      FROM accounts a LEFT JOIN identities i ON i.account_id = a.id
      WHERE a.id = $1 GROUP BY a.id""";

  private final Pool pool;

  public AccountRepository(Pool pool) {
    this.pool = pool;
  }

  public Future<Optional<String>> findByIdentity(String provider, String subject) {
    return pool.preparedQuery(FIND_BY_IDENTITY).execute(Tuple.of(provider, subject))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  /** An account that already holds a verified email, and the provider it was verified by. */
  public record EmailOwner(String accountId, String provider) {}

  public Future<Optional<EmailOwner>> findByVerifiedEmail(String email) {
    return pool.preparedQuery(FIND_BY_VERIFIED_EMAIL).execute(Tuple.of(email))
        .map(rows -> {
          if (rows.size() == 0) {
            return Optional.empty();
          }
          Row row = rows.iterator().next();
          return Optional.of(new EmailOwner(row.getString(0), row.getString(1)));
        });
  }

  /** Refuses a new account (rolled back) whose verified email another account holds. */
  public static final class EmailTaken extends RuntimeException {
    private final transient EmailOwner owner;

    EmailTaken(EmailOwner owner) {
      super("The verified email belongs to " + owner.accountId(), null, false, false);
      this.owner = owner;
    }

    public EmailOwner owner() {
      return owner;
    }
  }

  /**
   * Creates an account for a first-time identity, with the roles config grants it; fails with
   * {@link EmailTaken} when another account holds its verified email (checked in its turn, after
   * the identity is written: the same identity signing in twice at once fails on its key instead).
   */
  public Future<String> create(ExternalIdentity identity, Set<String> configRoles) {
    String accountId = Ids.newId("acc");
    String email = identity.verifiedEmail();
    return pool.withTransaction(tx -> emailTurn(tx, email)
        .compose(v -> tx.preparedQuery(INSERT_ACCOUNT).execute(Tuple.of(accountId, identity.displayName(), email)))
        .compose(v -> insertIdentity(tx, accountId, identity))
        .compose(v -> unlessEmailTaken(tx, email, accountId))
        .compose(v -> grant(tx, accountId, configRoles, "config"))
        .compose(v -> audit(tx, "account:" + accountId, "account.created", accountId,
            new JsonObject().put("provider", identity.provider()).put("login", identity.login())))
        .map(accountId));
  }

  /**
   * The GitHub id each configured operator login is pinned to (lower-case login → subject),
   * pinning {@code identity}'s login to its id first when {@code pin} and none is pinned yet.
   */
  public Future<Map<String, String>> operatorPins(ExternalIdentity identity, boolean pin) {
    Future<Void> pinned = !pin ? Future.succeededFuture()
        : pool.preparedQuery(PIN_LOGIN).execute(Tuple.of(identity.login(), identity.subject())).mapEmpty();
    return pinned.compose(v -> pool.query(PINS).execute()).map(rows -> {
      Map<String, String> pins = new java.util.HashMap<>();
      rows.forEach(row -> pins.put(row.getString("login"), row.getString("subject")));
      return pins;
    });
  }

  /** Links another provider's identity to an existing account. */
  public Future<Void> link(String accountId, ExternalIdentity identity) {
    return pool.withTransaction(tx -> insertIdentity(tx, accountId, identity)
        .compose(v -> audit(tx, "account:" + accountId, "identity.linked", accountId,
            new JsonObject().put("provider", identity.provider()).put("login", identity.login()))));
  }

  /**
   * Refreshes what the provider says about a returning identity and brings the roles config
   * grants up to date, judged over all the account's identities.
   */
  public Future<Void> touch(String accountId, ExternalIdentity identity,
      Function<ExternalIdentity, Set<String>> configRoles) {
    return pool.withTransaction(tx -> tx.preparedQuery(TOUCH_IDENTITY)
        .execute(Tuple.of(identity.provider(), identity.subject(), identity.login(), identity.email(),
            identity.emailVerified()))
        .compose(v -> tx.preparedQuery(ALL_IDENTITIES).execute(Tuple.of(accountId)))
        .compose(rows -> {
          Set<String> roles = new HashSet<>();
          rows.forEach(row -> roles.addAll(configRoles.apply(new ExternalIdentity(row.getString("provider"),
              row.getString("subject"), row.getString("login"), row.getString("email"),
              row.getBoolean("email_verified"), null))));
          Tuple params = Tuple.tuple().addString(accountId).addArrayOfString(roles.toArray(new String[0]));
          return tx.preparedQuery(DROP_STALE_CONFIG_ROLES).execute(params)
              .compose(v -> grant(tx, accountId, roles, "config"));
        }));
  }

  /** What an account may do now: its granted roles, and its suspension if it has one. */
  public record Access(Set<String> roles, Optional<Suspension> suspension) {
    static final Access NONE = new Access(Set.of(), Optional.empty());
  }

  /** The account's roles and suspension in one query (an account that no longer exists has no roles). */
  public Future<Access> access(String accountId) {
    return pool.preparedQuery(ACCESS).execute(Tuple.of(accountId)).map(rows -> {
      if (rows.size() == 0) {
        return Access.NONE;
      }
      Row row = rows.iterator().next();
      return new Access(Set.of(row.getArrayOfStrings("roles")), suspension(row));
    });
  }

  /** The suspension in a row with {@code suspended_at}, {@code suspension_reason}, {@code suspended_by}. */
  static Optional<Suspension> suspension(Row row) {
    return row.getOffsetDateTime("suspended_at") == null ? Optional.empty()
        : Optional.of(new Suspension(row.getOffsetDateTime("suspended_at"), row.getString("suspension_reason"),
            row.getString("suspended_by")));
  }

  public Future<Set<String>> grantedRoles(String accountId) {
    return pool.preparedQuery(ROLES).execute(Tuple.of(accountId)).map(rows -> {
      Set<String> roles = new HashSet<>();
      rows.forEach(row -> roles.add(row.getString(0)));
      return roles;
    });
  }

  /** Grants a role; false when the account does not exist. */
  public Future<Boolean> grantRole(String actorAccountId, String accountId, String role) {
    return pool.withTransaction(tx -> exists(tx, accountId).compose(exists -> !exists
        ? Future.succeededFuture(false)
        : tx.preparedQuery(GRANT_ROLE).execute(Tuple.of(accountId, role, actorAccountId))
            .compose(v -> audit(tx, "account:" + actorAccountId, "role.granted", accountId,
                new JsonObject().put("role", role)))
            .map(true)));
  }

  /** Takes a role away; false when the account does not exist. */
  public Future<Boolean> revokeRole(String actorAccountId, String accountId, String role) {
    return pool.withTransaction(tx -> OperatorQuorum.lock(tx).compose(locked -> exists(tx, accountId))
        .compose(exists -> !exists
        ? Future.succeededFuture(false)
        : tx.preparedQuery(REVOKE_ROLE).execute(Tuple.of(accountId, role))
            .compose(v -> OperatorQuorum.ensureOneLeft(tx))
            .compose(v -> audit(tx, "account:" + actorAccountId, "role.revoked", accountId,
                new JsonObject().put("role", role)))
            .map(true)));
  }

  /** The account with its identities (one query), or empty when it no longer exists. */
  public Future<Optional<JsonObject>> describe(String accountId) {
    return pool.preparedQuery(ACCOUNT_WITH_IDENTITIES).execute(Tuple.of(accountId)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row account = rows.iterator().next();
      return Optional.of(new JsonObject()
          .put("id", account.getString("id"))
          .put("display_name", account.getString("display_name"))
          .put("primary_email", account.getString("primary_email"))
          .put("created_at", account.getOffsetDateTime("created_at").toInstant().toString())
          .put("identities", account.getJsonArray("identities")));
    });
  }

  private static Future<Boolean> exists(SqlClient client, String accountId) {
    return client.preparedQuery(ACCOUNT).execute(Tuple.of(accountId)).map(rows -> rows.size() > 0);
  }

  private static Future<Void> emailTurn(SqlClient tx, String email) {
    return email == null ? Future.succeededFuture() : tx.preparedQuery(EMAIL_TURN).execute(Tuple.of(email)).mapEmpty();
  }

  private static Future<Void> unlessEmailTaken(SqlClient tx, String email, String accountId) {
    if (email == null) {
      return Future.succeededFuture();
    }
    return tx.preparedQuery(OTHER_EMAIL_OWNER).execute(Tuple.of(email, accountId)).compose(rows -> {
      if (rows.size() == 0) {
        return Future.succeededFuture();
      }
      Row row = rows.iterator().next();
      return Future.failedFuture(new EmailTaken(new EmailOwner(row.getString(0), row.getString(1))));
    });
  }

  private static Future<Void> insertIdentity(SqlClient client, String accountId, ExternalIdentity identity) {
    return client.preparedQuery(INSERT_IDENTITY).execute(Tuple.from(new Object[] {identity.provider(),
        identity.subject(), accountId, identity.login(), identity.email(), identity.emailVerified()})).mapEmpty();
  }

  private static Future<Void> grant(SqlClient client, String accountId, Set<String> roles, String grantedBy) {
    return Futures.inSequence(roles, role -> client.preparedQuery(GRANT_ROLE).execute(Tuple.of(accountId, role,
        grantedBy)));
  }

  private static Future<Void> audit(SqlClient client, String actor, String action, String target, JsonObject after) {
    return AuditLog.append(client, actor, action, target, null, after);
  }
}
