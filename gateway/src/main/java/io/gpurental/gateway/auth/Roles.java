package io.gpurental.gateway.auth;

import java.util.Set;
import java.util.TreeSet;

/** Role names. Every account is a renter; operator is granted by config or by another operator. */
public final class Roles {
  public static final String RENTER = "renter";
  public static final String OPERATOR = "operator";

  private Roles() {}

  /** The roles shown for an account with these granted roles. */
  public static Set<String> withRenter(Set<String> granted) {
    Set<String> roles = new TreeSet<>(granted);
    roles.add(RENTER);
    return roles;
  }
}
