package io.gpurental.gateway.auth;

import io.gpurental.gateway.platform.errors.Forbidden;
import io.vertx.core.json.JsonObject;
import java.time.OffsetDateTime;

/**
 * An operator's suspension of an account: while it stands, none of the account's tokens or
 * sessions is accepted and sign-in is refused; they work again once it is lifted.
 */
public record Suspension(OffsetDateTime since, String reason, String by) {
  /** The 403 every request of a suspended account gets: it names the suspension and its reason. */
  public Forbidden refusal() {
    return new Forbidden("This account is suspended (since " + since.toInstant() + "): " + reason
        + ". Its tokens and sessions are refused until an operator lifts the suspension.",
        new JsonObject().put("suspension", json()));
  }

  public JsonObject json() {
    return new JsonObject().put("since", since.toInstant().toString()).put("reason", reason);
  }
}
