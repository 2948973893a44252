package io.gpurental.gateway.auth.signin;

/** A person as an identity provider vouches for them. */
public record ExternalIdentity(String provider, String subject, String login, String email,
    boolean emailVerified, String displayName) {

  /** The email, only when the provider has verified it. */
  public String verifiedEmail() {
    return emailVerified ? email : null;
  }
}
