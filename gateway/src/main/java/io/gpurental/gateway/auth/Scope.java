package io.gpurental.gateway.auth;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** What a caller may do. Sessions get every scope their roles allow; tokens get what they were given. */
public enum Scope {
  CATALOG_READ("catalog:read"),
  RESERVATIONS_WRITE("reservations:write"),
  PAYMENTS_WRITE("payments:write"),
  OPERATOR("operator");

  private final String id;

  Scope(String id) {
    this.id = id;
  }

  public String id() {
    return id;
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
    EnumSet<Scope> scopes = EnumSet.of(CATALOG_READ, RESERVATIONS_WRITE, PAYMENTS_WRITE);
    if (roles.contains(Roles.OPERATOR)) {
      scopes.add(OPERATOR);
    }
    return scopes;
  }
}
