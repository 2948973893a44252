package io.gpurental.gateway.auth;

import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.Set;

/** Who is calling, how they proved it, and what they may do. */
public record Principal(String accountId, Set<String> roles, Set<Scope> scopes, Method method,
    Optional<String> tokenId) {
  private static final String KEY = "principal";

  /** How the caller authenticated. */
  public enum Method {
    SESSION,
    TOKEN;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  public boolean isOperator() {
    return roles.contains(Roles.OPERATOR);
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
