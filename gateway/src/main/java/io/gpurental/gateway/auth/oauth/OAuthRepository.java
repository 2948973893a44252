package io.gpurental.gateway.auth.oauth;

import io.gpurental.gateway.auth.tokens.TokenBudget;
import io.gpurental.gateway.auth.tokens.TokenSecrets;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The authorization server's tables: dynamically registered clients, grants (rows of
 * {@code api_tokens} of kind {@code oauth}, so budgets, scopes and revocation are an API
 * token's), one-time codes and rotating tokens, all stored as SHA-256 hashes.
 */
public final class OAuthRepository {
  static final Duration CODE_LIFETIME = Duration.ofMinutes(1);
  static final Duration REFRESH_LIFETIME = Duration.ofDays(30);
  private static final String INSERT_CLIENT =
      "INSERT INTO oauth_clients (id, client_name, redirect_uris) VALUES ($1, $2, $3)";
  private static final String FIND_CLIENT = "SELECT client_name, redirect_uris FROM oauth_clients WHERE id = $1";
  private static final String INSERT_GRANT_TOKEN = """
      INSERT INTO api_tokens (id, account_id, name, prefix, secret_hash, scopes, kind)
      VALUES ($1, $2, $3, 'oauth', $4, $5, 'oauth')""";
  private static final String INSERT_GRANT = """
      INSERT INTO oauth_grants (token_id, client_id, client_name, redirect_uri, resource) VALUES ($1, $2, $3, $4, $5)""";
  private static final String INSERT_BUDGET = """
      INSERT INTO token_budgets (token_id, currency, daily_cap, monthly_cap, total_cap, max_price_per_gpu_hour,
        max_hours, approval_threshold, updated_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)""";
  private static final String INSERT_CODE = """
      INSERT INTO oauth_codes (code_hash, token_id, client_id, redirect_uri, code_challenge, resource, expires_at)
      VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))""";
  /** Spends the code: a second redemption finds used_at set. */
  private static final String REDEEM_CODE = """
      WITH found AS (SELECT code_hash, used_at AS used_before FROM oauth_codes WHERE code_hash = $1 FOR UPDATE)
      UPDATE oauth_codes c SET used_at = coalesce(c.used_at, now()) FROM found
      WHERE c.code_hash = found.code_hash
      RETURNING c.token_id, c.client_id, c.redirect_uri, c.code_challenge, c.resource,
        c.expires_at > now() AS live, found.used_before IS NOT NULL AS reused""";
  private static final String INSERT_TOKEN = """
      INSERT INTO oauth_tokens (token_hash, token_id, kind, resource, expires_at)
      VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))""";
  private static final String ROTATE_REFRESH = """
      WITH found AS (SELECT token_hash, used_at AS used_before FROM oauth_tokens
                     WHERE token_hash = $1 AND kind = 'refresh' FOR UPDATE)
      UPDATE oauth_tokens o SET used_at = coalesce(o.used_at, now()) FROM found, oauth_grants g, api_tokens t
      WHERE o.token_hash = found.token_hash AND g.token_id = o.token_id AND t.id = o.token_id
      RETURNING o.token_id, o.resource, g.client_id, t.account_id, t.revoked_at IS NULL AS grant_live,
        o.expires_at > now() AS live, found.used_before IS NOT NULL AS reused""";
  private static final String REVOKE_GRANT = """
      UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now())
      WHERE id = $1 AND kind = 'oauth' AND ($2::text IS NULL OR account_id = $2) RETURNING account_id""";
  private static final String GRANT_OF_TOKEN = """
      SELECT token_id, kind FROM oauth_tokens WHERE token_hash = $1""";
  private static final String EXPIRE_ACCESS = "UPDATE oauth_tokens SET expires_at = now() WHERE token_hash = $1";
  private static final String LIST = """
      SELECT t.id, t.scopes, t.created_at, t.last_used_at, g.client_id, g.client_name, g.redirect_uri, g.resource
      FROM api_tokens t JOIN oauth_grants g ON g.token_id = t.id
      WHERE t.account_id = $1 AND t.kind = 'oauth' AND t.revoked_at IS NULL
      ORDER BY t.created_at DESC, t.id DESC LIMIT 200""";

  private static final String SCOPES = "SELECT scopes FROM api_tokens WHERE id = $1";
  /**
   * Codes and tokens a day past their expiry (a refresh token is kept until it expires, so a
   * reuse is recognised while it could still matter).
   */
  private static final String PRUNE = """
      WITH codes AS (DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day' RETURNING 1),
           tokens AS (DELETE FROM oauth_tokens WHERE expires_at < now() - interval '1 day' RETURNING 1)
      SELECT (SELECT count(*) FROM codes) + (SELECT count(*) FROM tokens) AS pruned""";
  private final Pool pool;

  public OAuthRepository(Pool pool) {
    this.pool = pool;
  }

  /** What a person consented to; {@code budget} empty: no caps. */
  record Consent(String accountId, OAuthClient client, String redirectUri, List<String> scopes, String resource,
      String codeChallenge, Optional<TokenBudget> budget) {}

  /** A redeemed code's binding. */
  record Code(String grantId, String clientId, String redirectUri, String codeChallenge, String resource,
      boolean live, boolean reused) {}

  /** A refresh token as presented: its grant, and whether it may still be used. */
  record Refresh(String grantId, String resource, String clientId, String accountId, boolean grantLive,
      boolean live, boolean reused) {}

  /** A live grant as the Account page lists it. */
  public record Grant(String id, List<String> scopes, OffsetDateTime createdAt, OffsetDateTime lastUsedAt,
      String clientId, String clientName, String redirectUri, String resource) {
    public JsonObject toJson() {
      return new JsonObject().put("id", id).put("client_id", clientId).put("client_name", clientName)
          .put("redirect_host", java.net.URI.create(redirectUri).getHost())
          .put("scopes", new io.vertx.core.json.JsonArray(scopes)).put("resource", resource)
          .put("created_at", createdAt.toInstant().toString())
          .put("last_used_at", lastUsedAt == null ? null : lastUsedAt.toInstant().toString());
    }
  }

  Future<Void> register(OAuthClient client) {
    return pool.preparedQuery(INSERT_CLIENT)
        .execute(Tuple.of(client.id(), client.name(), client.redirectUris().toArray(new String[0]))).mapEmpty();
  }

  Future<Optional<OAuthClient>> client(String id) {
    return pool.preparedQuery(FIND_CLIENT).execute(Tuple.of(id)).map(rows -> {
      var found = rows.iterator();
      if (!found.hasNext()) {
        return Optional.empty();
      }
      Row row = found.next();
      return Optional.of(new OAuthClient(id, row.getString("client_name"),
          Arrays.asList(row.getArrayOfStrings("redirect_uris"))));
    });
  }

  /** Creates the grant, its budget and its one-time code in one transaction; returns the grant id. */
  Future<String> consent(Consent consent, String code) {
    String grantId = Ids.newId("tok");
    byte[] unusable = TokenSecrets.hash(TokenSecrets.generate()); // grants authenticate only by OAuth tokens
    return pool.withTransaction(tx -> tx.preparedQuery(INSERT_GRANT_TOKEN)
        .execute(Tuple.of(grantId, consent.accountId(), consent.client().name(), Buffer.buffer(unusable),
            consent.scopes().toArray(new String[0])))
        .compose(v -> tx.preparedQuery(INSERT_GRANT).execute(Tuple.of(grantId, consent.client().id(),
            consent.client().name(), consent.redirectUri(), consent.resource())))
        .compose(v -> consent.budget().map(budget -> insertBudget(tx, grantId, consent.accountId(), budget))
            .orElse(Future.succeededFuture()))
        .compose(v -> tx.preparedQuery(INSERT_CODE).execute(Tuple.of(hash(code), grantId, consent.client().id(),
            consent.redirectUri(), consent.codeChallenge(), consent.resource(), CODE_LIFETIME.toSeconds())))
        .compose(v -> AuditLog.append(tx, "account:" + consent.accountId(), "oauth.grant.created", grantId, null,
            new JsonObject().put("client_id", consent.client().id()).put("scopes", consent.scopes())
                .put("budget", consent.budget().map(TokenBudget::toJson).orElse(null))))
        .map(grantId));
  }

  private static Future<Void> insertBudget(SqlClient tx, String grantId, String accountId, TokenBudget budget) {
    return tx.preparedQuery(INSERT_BUDGET).execute(Tuple.from(new Object[] {grantId, budget.currency(),
        budget.dailyCap(), budget.monthlyCap(), budget.totalCap(), budget.maxPricePerGpuHour(), budget.maxHours(),
        budget.approvalThreshold(), accountId})).mapEmpty();
  }

  /** Marks the code used and answers its binding; empty when no such code was ever issued. */
  Future<Optional<Code>> redeem(String code) {
    return pool.preparedQuery(REDEEM_CODE).execute(Tuple.of(hash(code))).map(rows -> {
      var found = rows.iterator();
      if (!found.hasNext()) {
        return Optional.empty();
      }
      Row row = found.next();
      return Optional.of(new Code(row.getString("token_id"), row.getString("client_id"),
          row.getString("redirect_uri"), row.getString("code_challenge"), row.getString("resource"),
          row.getBoolean("live"), row.getBoolean("reused")));
    });
  }

  /** Marks the refresh token used (rotation) and answers what it was; empty when unknown. */
  Future<Optional<Refresh>> rotate(String refreshToken) {
    return pool.preparedQuery(ROTATE_REFRESH).execute(Tuple.of(hash(refreshToken))).map(rows -> {
      var found = rows.iterator();
      if (!found.hasNext()) {
        return Optional.empty();
      }
      Row row = found.next();
      return Optional.of(new Refresh(row.getString("token_id"), row.getString("resource"),
          row.getString("client_id"), row.getString("account_id"), row.getBoolean("grant_live"),
          row.getBoolean("live"), row.getBoolean("reused")));
    });
  }

  /** Stores a new access and refresh token of the grant. */
  Future<Void> issue(String grantId, String resource, String accessToken, Duration accessLifetime,
      String refreshToken) {
    return pool.withTransaction(tx -> tx.preparedQuery(INSERT_TOKEN)
        .execute(Tuple.of(hash(accessToken), grantId, "access", resource, accessLifetime.toSeconds()))
        .compose(v -> tx.preparedQuery(INSERT_TOKEN)
            .execute(Tuple.of(hash(refreshToken), grantId, "refresh", resource, REFRESH_LIFETIME.toSeconds())))
        .mapEmpty());
  }

  /** Revokes a grant (of this account; any account when null); the account it belonged to, if found. */
  public Future<Optional<String>> revokeGrant(String grantId, String accountId) {
    return pool.withTransaction(tx -> tx.preparedQuery(REVOKE_GRANT).execute(Tuple.of(grantId, accountId))
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture(Optional.<String>empty());
          }
          String owner = rows.iterator().next().getString("account_id");
          return AuditLog.append(tx, "account:" + owner, "oauth.grant.revoked", grantId, null, null)
              .map(Optional.of(owner));
        }));
  }

  /**
   * RFC 7009: a refresh token revokes its grant, an access token only itself. Answers the account
   * whose grant was revoked, if any.
   */
  Future<Optional<String>> revokeToken(String token) {
    return pool.preparedQuery(GRANT_OF_TOKEN).execute(Tuple.of(hash(token))).compose(rows -> {
      if (rows.size() == 0) {
        return Future.succeededFuture(Optional.empty());
      }
      Row row = rows.iterator().next();
      return "refresh".equals(row.getString("kind")) ? revokeGrant(row.getString("token_id"), null)
          : pool.preparedQuery(EXPIRE_ACCESS).execute(Tuple.of(hash(token))).map(Optional.<String>empty());
    });
  }

  /** Deletes expired codes and tokens; how many. */
  public Future<Long> prune() {
    return pool.query(PRUNE).execute().map(rows -> rows.iterator().next().getLong("pruned"));
  }

  Future<List<String>> scopesOf(String grantId) {
    return pool.preparedQuery(SCOPES).execute(Tuple.of(grantId))
        .map(rows -> Arrays.asList(rows.iterator().next().getArrayOfStrings("scopes")));
  }

  public Future<List<Grant>> list(String accountId) {
    return pool.preparedQuery(LIST).execute(Tuple.of(accountId)).map(rows -> {
      List<Grant> grants = new ArrayList<>();
      rows.forEach(row -> grants.add(new Grant(row.getString("id"), Arrays.asList(row.getArrayOfStrings("scopes")),
          row.getOffsetDateTime("created_at"), row.getOffsetDateTime("last_used_at"), row.getString("client_id"),
          row.getString("client_name"), row.getString("redirect_uri"), row.getString("resource"))));
      return grants;
    });
  }

  private static Buffer hash(String secret) {
    return Buffer.buffer(TokenSecrets.hash(secret));
  }
}
