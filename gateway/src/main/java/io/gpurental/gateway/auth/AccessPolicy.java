package io.gpurental.gateway.auth;

import io.gpurental.gateway.platform.errors.Forbidden;
import io.gpurental.gateway.platform.errors.Unauthorized;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Enforces an operation's {@code security} from openapi.yaml. {@code {}} admits anyone;
 * {@code sessionCookie: [roles…]} admits signed-in browsers whose account has those roles;
 * {@code bearerAuth: [scopes…]} admits tokens holding those scopes (a write scope counts as its
 * read scope). An operation without a
 * security declaration admits no one (and fails the contract test).
 */
public final class AccessPolicy {
  static final String SESSION_SCHEME = "sessionCookie";
  static final String BEARER_SCHEME = "bearerAuth";

  private AccessPolicy() {}

  public static void check(List<Map<String, List<String>>> requirements, Optional<Principal> caller) {
    if (requirements.stream().anyMatch(Map::isEmpty)) {
      return;
    }
    if (caller.isEmpty()) {
      throw new Unauthorized("Sign in, or send an API token as Authorization: Bearer gpr_….");
    }
    Principal principal = caller.get();
    String scheme = principal.method() == Principal.Method.SESSION ? SESSION_SCHEME : BEARER_SCHEME;
    List<String> missing = null;
    for (Map<String, List<String>> requirement : requirements) {
      if (!requirement.containsKey(scheme)) {
        continue;
      }
      List<String> lacking = lacking(principal, requirement.get(scheme));
      if (lacking.isEmpty()) {
        return;
      }
      missing = missing == null || lacking.size() < missing.size() ? lacking : missing;
    }
    if (missing == null) {
      throw new Forbidden(principal.method() == Principal.Method.TOKEN
          ? "API tokens cannot do this; sign in to the web app."
          : "This operation needs an API token.");
    }
    throw new Forbidden(principal.method() == Principal.Method.TOKEN
        ? "The token lacks the scope " + String.join(", ", missing) + "."
        : "This needs the " + String.join(", ", missing) + " role.");
  }

  private static List<String> lacking(Principal principal, List<String> required) {
    List<String> lacking = new ArrayList<>();
    for (String needed : required) {
      boolean has = principal.method() == Principal.Method.SESSION
          ? principal.roles().contains(needed)
          : principal.scopes().stream().anyMatch(scope -> scope.grants(needed));
      if (!has) {
        lacking.add(needed);
      }
    }
    return lacking;
  }
}
