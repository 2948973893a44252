package io.gpurental.gateway.auth;

import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.Set;

/**
 * Who is calling, how they proved it, and what they may do. A host agent ({@link Method#HOST})
 * carries its host id as {@code accountId} and no roles or scopes; an agent enrolling
 * ({@link Method#ENROLMENT}) is known only by its token, which the fleet checks.
 */
public record Principal(String accountId, Set<String> roles, Set<Scope> scopes, Method method,
    Optional<String> tokenId) {
  private static final String KEY = "principal";

  /** How the caller authenticated. */
  public enum Method {
    SESSION,
    TOKEN,
    HOST,
    ENROLMENT;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  static Principal host(String hostId) {
    return new Principal(hostId, Set.of(), Set.of(), Method.HOST, Optional.empty());
  }

  static Principal enrolment() {
    return new Principal(null, Set.of(), Set.of(), Method.ENROLMENT, Optional.empty());
  }

  /** The host a host agent calls for; only for {@link Method#HOST}. */
  public String hostId() {
    if (method != Method.HOST) {
      throw new IllegalStateException("not a host agent");
    }
    return accountId;
  }

  /** Whether a host agent calls (with a host credential or an enrolment token). */
  public boolean isAgent() {
    return method == Method.HOST || method == Method.ENROLMENT;
  }

  /**
   * Whether the caller may act as the operator: the account's role AND, for an API token, the
   * token's {@code operator} scope. A token an operator made with only renter scopes sees and
   * changes only its own account's data.
   */
  public boolean isOperator() {
    return roles.contains(Roles.OPERATOR) && scopes.contains(Scope.OPERATOR);
  }

  public void attachTo(RoutingContext ctx) {
    ctx.put(KEY, this);
  }

  public static Optional<Principal> of(RoutingContext ctx) {
    return Optional.ofNullable(ctx.get(KEY));
  }

  /** The caller of a route whose security requirements demanded authentication. */
  public static Principal required(RoutingContext ctx) {
    Principal principal = ctx.get(KEY);
    if (principal == null) {
      throw new IllegalStateException("route reached without an authenticated caller");
    }
    return principal;
  }
}
