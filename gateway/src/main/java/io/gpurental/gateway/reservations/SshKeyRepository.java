package io.gpurental.gateway.reservations;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The SSH public keys renters saved, in PostgreSQL. */
final class SshKeyRepository {
  private static final String COLUMNS = "id, name, public_key, fingerprint, created_at";
  private static final String LIST = "SELECT " + COLUMNS
      + " FROM ssh_keys WHERE account_id = $1 ORDER BY created_at DESC, id DESC";
  private static final String INSERT = "INSERT INTO ssh_keys (id, account_id, name, public_key, fingerprint)"
      + " VALUES ($1, $2, $3, $4, $5) RETURNING " + COLUMNS;
  private static final String DELETE = "DELETE FROM ssh_keys WHERE id = $1 AND account_id = $2 RETURNING id";
  private static final String PUBLIC_KEY = "SELECT public_key FROM ssh_keys WHERE id = $1 AND account_id = $2";
  private final Pool pool;

  SshKeyRepository(Pool pool) {
    this.pool = pool;
  }

  /** A saved key; {@code publicKey} is its OpenSSH text. */
  record SshKey(String id, String name, String publicKey, String fingerprint, Instant createdAt) {}

  /** The account's keys, newest first. */
  Future<List<SshKey>> list(String accountId) {
    return pool.preparedQuery(LIST).execute(Tuple.of(accountId)).map(rows -> {
      List<SshKey> keys = new ArrayList<>();
      rows.forEach(row -> keys.add(key(row)));
      return keys;
    });
  }

  /** Saves a key; fails with the unique violation (23505) when the account already has it. */
  Future<SshKey> insert(String id, String accountId, String name, SshPublicKey key) {
    return pool.preparedQuery(INSERT).execute(Tuple.of(id, accountId, name, key.text(), key.fingerprint()))
        .map(rows -> key(rows.iterator().next()));
  }

  /** Deletes one of the account's keys; false when it has no such key. */
  Future<Boolean> delete(String id, String accountId) {
    return pool.preparedQuery(DELETE).execute(Tuple.of(id, accountId)).map(rows -> rows.size() > 0);
  }

  /** The text of one of the account's saved keys. */
  Future<Optional<String>> publicKey(String id, String accountId) {
    return pool.preparedQuery(PUBLIC_KEY).execute(Tuple.of(id, accountId))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  private static SshKey key(Row row) {
    return new SshKey(row.getString("id"), row.getString("name"), row.getString("public_key"),
        row.getString("fingerprint"), row.getOffsetDateTime("created_at").toInstant());
  }
}
