package io.gpurental.gateway.auth.signin;

import io.vertx.core.Future;

/** A sign-in provider driven through the OAuth2 authorization-code flow with PKCE. */
public interface IdentityProvider {
  /** {@code github} or {@code google}: also the path segment under {@code /auth/}. */
  String name();

  /** Where to send the browser to sign in. */
  Future<String> authorizeUrl(AuthorizationRequest request);

  /** Exchanges the code (with the PKCE verifier) and says who signed in. */
  Future<ExternalIdentity> identify(String code, AuthorizationRequest request);

  /** What a sign-in started with, kept in the browser's session until the callback. */
  record AuthorizationRequest(String state, String codeVerifier, String nonce, String redirectUri) {}
}
