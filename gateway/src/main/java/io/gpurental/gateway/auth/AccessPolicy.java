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
 * read scope). {@code hostCredential: []} and {@code enrollmentToken: []} are the agent routes:
 * they admit only host agents, and host agents are admitted nowhere else (both ways 401, as an
 * agent's secret is not a credential of the other kind). An operation without a security
 * declaration admits no one (and fails the contract test).
 */
public final class AccessPolicy {
  static final String SESSION_SCHEME = "sessionCookie";
  static final String BEARER_SCHEME = "bearerAuth";
  static final String HOST_SCHEME = "hostCredential";
  static final String ENROLMENT_SCHEME = "enrollmentToken";

  private AccessPolicy() {}

  public static void check(List<Map<String, List<String>>> requirements, Optional<Principal> caller) {
    if (checkAgent(requirements, caller)) {
      return;
    }
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

  /** True when an agent is admitted; throws for an agent off its routes or anyone else on them. */
  private static boolean checkAgent(List<Map<String, List<String>>> requirements, Optional<Principal> caller) {
    boolean agentOperation = requirements.stream()
        .anyMatch(r -> r.containsKey(HOST_SCHEME) || r.containsKey(ENROLMENT_SCHEME));
    boolean agent = caller.map(Principal::isAgent).orElse(false);
    if (!agent && !agentOperation) {
      return false;
    }
    if (!agent) {
      throw new Unauthorized("Agent routes accept only a host agent's credential (Authorization: Bearer gpr_host_…).");
    }
    String scheme = caller.get().method() == Principal.Method.HOST ? HOST_SCHEME : ENROLMENT_SCHEME;
    if (requirements.stream().noneMatch(r -> r.containsKey(scheme))) {
      throw new Unauthorized(scheme.equals(HOST_SCHEME)
          ? "A host credential is accepted only on /api/v1/agent/… routes."
          : "An enrolment token is accepted only by POST /api/v1/agent/enroll.");
    }
    return true;
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
