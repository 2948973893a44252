package io.gpurental.agent.runtime;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/** OpenSSH public key text helpers. */
public final class SshKeys {
  private SshKeys() {
  }

  /** {@code SHA256:…} of a public key line ({@code type base64 [comment]}), as {@code ssh-keygen -l} prints it. */
  public static String fingerprint(String publicKeyLine) {
    byte[] blob = Base64.getDecoder().decode(publicKeyLine.strip().split("\\s+")[1]);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(blob);
      return "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The key without its comment: {@code type base64}. */
  public static String withoutComment(String publicKeyLine) {
    String[] parts = publicKeyLine.strip().split("\\s+");
    return parts[0] + " " + parts[1];
  }

  /**
   * A renter's key must be one authorized_keys line with no options: a newline or a leading option
   * would let a key grant more than a login.
   */
  public static boolean isPlainPublicKey(String line) {
    return line != null && line.matches("(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp(256|384|521)"
        + "|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\\.com) [A-Za-z0-9+/]+={0,3}( [^\\r\\n]*)?");
  }
}
