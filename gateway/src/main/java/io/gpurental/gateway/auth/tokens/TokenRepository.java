package io.gpurental.gateway.auth.tokens;

import io.gpurental.gateway.auth.Suspension;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** API tokens in PostgreSQL, looked up by the hash of their secret. */
public final class TokenRepository {
  private static final String COLUMNS = "id, account_id, name, prefix, scopes, created_at, last_used_at, expires_at";
  private static final String INSERT = "INSERT INTO api_tokens"
      + " (id, account_id, name, prefix, secret_hash, scopes, expires_at)"
      + " VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING " + COLUMNS;
  private static final String LIST = "SELECT " + COLUMNS + " FROM api_tokens"
      + " WHERE account_id = $1 AND revoked_at IS NULL AND kind = 'api'"
      + " AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3))"
      + " ORDER BY created_at DESC, id DESC LIMIT $4";
  private static final String FIND = "SELECT " + COLUMNS + " FROM api_tokens"
      + " WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL";
  private static final String REVOKE = """
      UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now())
      WHERE id = $1 AND account_id = $2 RETURNING id""";
  private static final String OWNER = """
      SELECT t.id, t.account_id, t.scopes,
             (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS touch_due,
             array(SELECT r.role FROM account_roles r WHERE r.account_id = t.account_id) AS roles,
             a.suspended_at, a.suspension_reason, a.suspended_by
      FROM api_tokens t JOIN accounts a ON a.id = t.account_id""";
  private static final String AUTHENTICATE = OWNER + " WHERE t.secret_hash = $1 AND t.kind = 'api'"
      + " AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())";
  /** An OAuth access token: live itself, and its grant (a token of kind oauth) not revoked. */
  private static final String AUTHENTICATE_OAUTH = OWNER.replace("SELECT t.id,", "SELECT o.resource, t.id,")
      + " JOIN oauth_tokens o ON o.token_id = t.id WHERE o.token_hash = $1 AND o.kind = 'access'"
      + " AND o.expires_at > now() AND t.kind = 'oauth' AND t.revoked_at IS NULL";
  private static final String IS_LIVE = """
      SELECT 1 FROM api_tokens WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())""";
  /** At most one write a minute per token, so busy clients don't turn every read into a write. */
  private static final String TOUCH = """
      UPDATE api_tokens SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')""";

  private final Pool pool;

  public TokenRepository(Pool pool) {
    this.pool = pool;
  }

  /**
   * A live token's owner, scopes and the owner's granted roles; {@code touchDue} when its
   * last-used time is due for an update; the account's suspension, if it has one.
   */
  public record TokenOwner(String tokenId, String accountId, List<String> scopes, Set<String> roles,
      boolean touchDue, Optional<Suspension> suspension) {}

  public Future<ApiToken> create(String id, String accountId, String name, String secret, List<String> scopes,
      OffsetDateTime expiresAt) {
    return create(id, accountId, name, secret, scopes, expiresAt, tx -> Future.succeededFuture());
  }

  /** Creates the token; {@code alsoInTransaction} runs in the same transaction (e.g. its budget). */
  public Future<ApiToken> create(String id, String accountId, String name, String secret, List<String> scopes,
      OffsetDateTime expiresAt, java.util.function.Function<io.vertx.sqlclient.SqlConnection, Future<?>> alsoInTransaction) {
    Tuple params = Tuple.from(new Object[] {id, accountId, name, TokenSecrets.displayPrefix(secret),
        io.vertx.core.buffer.Buffer.buffer(TokenSecrets.hash(secret)), scopes.toArray(new String[0]), expiresAt});
    return pool.withTransaction(tx -> tx.preparedQuery(INSERT).execute(params)
        .compose(rows -> AuditLog.append(tx, "account:" + accountId, "token.created", id, null,
                new JsonObject().put("name", name).put("scopes", scopes))
            .compose(v -> alsoInTransaction.apply(tx))
            .map(v -> toToken(rows.iterator().next()))));
  }

  /** Live tokens, newest first, after the cursor position; one more than the limit tells of a next page. */
  public Future<List<ApiToken>> list(String accountId, Optional<Page.Position> after, int limit) {
    Tuple params = Tuple.of(accountId, after.map(Page.Position::createdAt).orElse(null),
        after.map(Page.Position::id).orElse(null), limit + 1);
    return pool.preparedQuery(LIST).execute(params).map(rows -> {
      List<ApiToken> tokens = new ArrayList<>();
      rows.forEach(row -> tokens.add(toToken(row)));
      return tokens;
    });
  }

  /** The account's live token. */
  public Future<Optional<ApiToken>> find(String accountId, String tokenId) {
    return pool.preparedQuery(FIND).execute(Tuple.of(tokenId, accountId)).map(rows -> {
      var found = rows.iterator();
      return found.hasNext() ? Optional.of(toToken(found.next())) : Optional.empty();
    });
  }

  /** Revokes the account's own token; false when it has no such token. */
  public Future<Boolean> revoke(String accountId, String tokenId) {
    return pool.withTransaction(tx -> tx.preparedQuery(REVOKE).execute(Tuple.of(tokenId, accountId))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture(false)
            : AuditLog.append(tx, "account:" + accountId, "token.revoked", tokenId, null, null)
                .map(true)));
  }

  /** The owner of an OAuth grant whose access token this is, and the resource the token is for. */
  public record OAuthOwner(TokenOwner owner, String resource) {}

  public Future<Optional<TokenOwner>> authenticate(String secret) {
    Tuple params = Tuple.of(io.vertx.core.buffer.Buffer.buffer(TokenSecrets.hash(secret)));
    return pool.preparedQuery(AUTHENTICATE).execute(params)
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(owner(rows.iterator().next())));
  }

  /** Like {@link #authenticate} for an OAuth access token: the same owner, scopes and suspension. */
  public Future<Optional<OAuthOwner>> authenticateOAuth(String accessToken) {
    Tuple params = Tuple.of(io.vertx.core.buffer.Buffer.buffer(TokenSecrets.hash(accessToken)));
    return pool.preparedQuery(AUTHENTICATE_OAUTH).execute(params).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      return Optional.of(new OAuthOwner(owner(row), row.getString("resource")));
    });
  }

  private static TokenOwner owner(Row row) {
    return new TokenOwner(row.getString("id"), row.getString("account_id"),
        Arrays.asList(row.getArrayOfStrings("scopes")),
        new HashSet<>(Arrays.asList(row.getArrayOfStrings("roles"))), row.getBoolean("touch_due"),
        row.getOffsetDateTime("suspended_at") == null ? Optional.empty()
            : Optional.of(new Suspension(row.getOffsetDateTime("suspended_at"), row.getString("suspension_reason"),
                row.getString("suspended_by"))));
  }

  /** Whether the token is neither revoked nor expired. */
  public Future<Boolean> isLive(String tokenId) {
    return pool.preparedQuery(IS_LIVE).execute(Tuple.of(tokenId)).map(rows -> rows.size() > 0);
  }

  public Future<Void> touch(String tokenId) {
    return pool.preparedQuery(TOUCH).execute(Tuple.of(tokenId)).mapEmpty();
  }

  private static ApiToken toToken(Row row) {
    return new ApiToken(row.getString("id"), row.getString("account_id"), row.getString("name"),
        row.getString("prefix"), Arrays.asList(row.getArrayOfStrings("scopes")),
        row.getOffsetDateTime("created_at"), row.getOffsetDateTime("last_used_at"),
        row.getOffsetDateTime("expires_at"));
  }
}
