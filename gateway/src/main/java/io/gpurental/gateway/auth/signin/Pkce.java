package io.gpurental.gateway.auth.signin;

import io.gpurental.gateway.platform.Ids;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** PKCE (RFC 7636) with S256: a random verifier and its SHA-256 challenge. */
public final class Pkce {
  private static final int VERIFIER_LENGTH = 64;

  private Pkce() {}

  public static String newVerifier() {
    return Ids.randomBase62(VERIFIER_LENGTH);
  }

  public static String challenge(String verifier) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
