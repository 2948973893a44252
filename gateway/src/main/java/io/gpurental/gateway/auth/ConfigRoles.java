package io.gpurental.gateway.auth;

import io.gpurental.gateway.auth.signin.ExternalIdentity;
import io.gpurental.gateway.config.AuthConfig;
import java.util.Locale;
import java.util.Set;

/**
 * The roles config gives an identity: operator for the GitHub logins in
 * {@code auth.operators.github_logins} and the verified emails in {@code auth.operators.emails}.
 * Config grants follow config: they are renewed at every sign-in and cannot be revoked through the
 * API (remove the person from config instead, or suspend the account to stop it at once).
 */
public final class ConfigRoles {
  private final AuthConfig auth;

  public ConfigRoles(AuthConfig auth) {
    this.auth = auth;
  }

  public Set<String> of(ExternalIdentity identity) {
    return listsOperator(identity.provider(), identity.login(), identity.emailVerified() ? identity.email() : null)
        ? Set.of(Roles.OPERATOR) : Set.of();
  }

  /** Whether config lists this identity (its provider, login and verified email, may be null) as an operator. */
  public boolean listsOperator(String provider, String login, String verifiedEmail) {
    boolean byLogin = "github".equals(provider) && login != null
        && auth.operatorGithubLogins().stream().anyMatch(listed -> listed.equalsIgnoreCase(login));
    boolean byEmail = verifiedEmail != null && auth.operatorEmails().stream()
        .anyMatch(e -> e.toLowerCase(Locale.ROOT).equals(verifiedEmail.toLowerCase(Locale.ROOT)));
    return byLogin || byEmail;
  }
}
