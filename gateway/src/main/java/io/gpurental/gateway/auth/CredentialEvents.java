package io.gpurental.gateway.auth;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * "An account's credentials changed" on the clustered event bus: a token revoked, a session ended,
 * a role granted or taken away. It carries only the account: listeners (the live event streams)
 * re-check what they hold with {@link Credentials#stillValid}, so a lost or reordered message can
 * cost time (until the periodic re-check) but never grant anything.
 */
public final class CredentialEvents {
  public static final String ADDRESS = "auth.credentials.changed";
  public static final String ACCOUNT_ID = "account_id";

  private CredentialEvents() {}

  /** Announces, after the change is stored, that an account's credentials changed. */
  static void changed(Vertx vertx, String accountId) {
    vertx.eventBus().publish(ADDRESS, new JsonObject().put(ACCOUNT_ID, accountId));
  }
}
