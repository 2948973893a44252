package io.gpurental.gateway.auth;

import io.gpurental.gateway.auth.signin.ExternalIdentity;
import io.gpurental.gateway.config.AuthConfig;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The roles config gives an identity: operator for the GitHub logins in
 * {@code auth.operators.github_logins}, keyed on the GitHub id each login had at its first sign-in
 * (a login is renamed and registered anew by someone else: another id), and the verified emails in
 * {@code auth.operators.emails}.
 * Config grants follow config: they are renewed at every sign-in and cannot be revoked through the
 * API (remove the person from config instead, or suspend the account to stop it at once).
 */
public final class ConfigRoles {
  private final AuthConfig auth;

  public ConfigRoles(AuthConfig auth) {
    this.auth = auth;
  }

  /**
   * The roles config gives {@code identity}; {@code pins}: the GitHub id each listed login was
   * pinned to at its first sign-in (login in lower case → subject).
   */
  public Set<String> of(ExternalIdentity identity, Map<String, String> pins) {
    String login = identity.login() == null ? null : identity.login().toLowerCase(Locale.ROOT);
    return listsOperator(identity.provider(), identity.subject(), identity.login(),
        identity.emailVerified() ? identity.email() : null, login == null ? null : pins.get(login))
        ? Set.of(Roles.OPERATOR) : Set.of();
  }

  /** Whether this is a GitHub identity whose login config lists (its id is pinned at its first sign-in). */
  public boolean listsGithubLogin(ExternalIdentity identity) {
    return "github".equals(identity.provider()) && identity.login() != null
        && auth.operatorGithubLogins().stream().anyMatch(listed -> listed.equalsIgnoreCase(identity.login()));
  }

  /**
   * Whether config lists this identity as an operator: its GitHub login, when the login's pinned id
   * ({@code pinnedSubject}, null when none) is this identity's own, or its verified email (may be null).
   */
  public boolean listsOperator(String provider, String subject, String login, String verifiedEmail,
      String pinnedSubject) {
    boolean byLogin = "github".equals(provider) && login != null && subject != null && subject.equals(pinnedSubject)
        && auth.operatorGithubLogins().stream().anyMatch(listed -> listed.equalsIgnoreCase(login));
    boolean byEmail = verifiedEmail != null && auth.operatorEmails().stream()
        .anyMatch(e -> e.toLowerCase(Locale.ROOT).equals(verifiedEmail.toLowerCase(Locale.ROOT)));
    return byLogin || byEmail;
  }
}
