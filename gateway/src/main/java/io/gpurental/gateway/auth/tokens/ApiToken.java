package io.gpurental.gateway.auth.tokens;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.OffsetDateTime;
import java.util.List;

/** A token as stored (never with its secret). */
public record ApiToken(String id, String accountId, String name, String prefix, List<String> scopes,
    OffsetDateTime createdAt, OffsetDateTime lastUsedAt, OffsetDateTime expiresAt) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("name", name)
        .put("prefix", prefix)
        .put("scopes", new JsonArray(scopes))
        .put("created_at", time(createdAt))
        .put("last_used_at", time(lastUsedAt))
        .put("expires_at", time(expiresAt));
  }

  private static String time(OffsetDateTime time) {
    return time == null ? null : time.toInstant().toString();
  }
}
