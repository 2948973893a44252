package io.gpurental.gateway.auth;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An account as the operator's administration sees it: who it is, its identities, its granted
 * roles (and whether config lists it as an operator), and its suspension.
 */
public record AdminAccount(String id, String displayName, String primaryEmail, OffsetDateTime createdAt,
    List<Identity> identities, Set<String> roles, boolean operatorByConfig, Optional<Suspension> suspension) {

  /** One linked provider identity; {@code lastSignInAt} may be null. */
  public record Identity(String provider, String login, String email, boolean emailVerified,
      OffsetDateTime lastSignInAt) {}

  public boolean operator() {
    return roles.contains(Roles.OPERATOR);
  }
}
