package io.gpurental.gateway.auth;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a caller may do. Sessions get every scope their roles allow; tokens get what they were
 * given. A write scope implies its read scope.
 */
public enum Scope {
  CATALOG_READ("catalog:read", null),
  RESERVATIONS_READ("reservations:read", null),
  RESERVATIONS_WRITE("reservations:write", RESERVATIONS_READ),
  PAYMENTS_READ("payments:read", null),
  PAYMENTS_WRITE("payments:write", PAYMENTS_READ),
  OPERATOR("operator", null);

  private final String id;
  private final Scope implied;

  Scope(String id, Scope implied) {
    this.id = id;
    this.implied = implied;
  }

  public String id() {
    return id;
  }

  /** Whether holding this scope satisfies a requirement for {@code required} (a scope id). */
  public boolean grants(String required) {
    return id.equals(required) || (implied != null && implied.grants(required));
  }

  public static Optional<Scope> fromId(String id) {
    for (Scope scope : values()) {
      if (scope.id.equals(id)) {
        return Optional.of(scope);
      }
    }
    return Optional.empty();
  }

  /** Every scope an account with these roles may hold. */
  public static Set<Scope> allowedFor(Set<String> roles) {
    EnumSet<Scope> scopes = EnumSet.of(CATALOG_READ, RESERVATIONS_READ, RESERVATIONS_WRITE, PAYMENTS_READ,
        PAYMENTS_WRITE);
    if (roles.contains(Roles.OPERATOR)) {
      scopes.add(OPERATOR);
    }
    return scopes;
  }
}
