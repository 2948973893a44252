package io.gpurental.gateway.sandbox;

import io.gpurental.gateway.platform.Ids;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The key that opens the sandbox's fault and test controls: random per installation (stored in
 * {@code sandbox_fault_control_key}, the same on every node), never one of the sandbox's fixed,
 * documented Stripe or OAuth secrets.
 */
public final class FaultControlKey {
  private static final String PREFIX = "gpr_fault_";
  private static final String CREATE =
      "INSERT INTO sandbox_fault_control_key (key) VALUES ($1) ON CONFLICT (singleton) DO NOTHING";
  private static final String READ = "SELECT key FROM sandbox_fault_control_key";

  private FaultControlKey() {}

  /** The installation's key, made by whichever node asks first. */
  public static Future<String> load(Pool pool) {
    return pool.preparedQuery(CREATE).execute(Tuple.of(PREFIX + Ids.randomBase62(40)))
        .compose(v -> pool.query(READ).execute())
        .map(rows -> rows.iterator().next().getString("key"));
  }

  /** Whether an {@code Authorization} header carries {@code key} as a bearer token (constant time). */
  public static boolean presented(String authorization, String key) {
    if (authorization == null || key == null) {
      return false;
    }
    return MessageDigest.isEqual(authorization.getBytes(StandardCharsets.UTF_8),
        ("Bearer " + key).getBytes(StandardCharsets.UTF_8));
  }
}
