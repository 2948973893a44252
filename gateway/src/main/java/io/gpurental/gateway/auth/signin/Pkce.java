package io.gpurental.gateway.auth.signin;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.Ids;
import java.util.Base64;

/** PKCE (RFC 7636) with S256: a random verifier and its SHA-256 challenge. */
public final class Pkce {
  private static final int VERIFIER_LENGTH = 64;

  private Pkce() {}

  public static String newVerifier() {
    return Ids.randomBase62(VERIFIER_LENGTH);
  }

  public static String challenge(String verifier) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(Hashes.sha256(verifier));
  }
}
