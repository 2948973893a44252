package io.gpurental.gateway.auth.tokens;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.Ids;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * API token secrets: {@code gpr_} + 32 random base62 characters + a 6-character CRC32 checksum,
 * so secret scanners can recognise them and typos are refused without a database lookup. Only a
 * SHA-256 of the secret is stored (the secret is random enough that a slow hash adds nothing).
 * Host agents' secrets have the same shape under their own prefixes ({@link #ENROLMENT_PREFIX},
 * {@link #HOST_PREFIX}), so one cannot pass for another.
 */
public final class TokenSecrets {
  static final String PREFIX = "gpr_";
  /** One-time enrolment tokens of host agents. */
  public static final String ENROLMENT_PREFIX = "gpr_enr_";
  /** Host agents' long-lived credentials. */
  public static final String HOST_PREFIX = "gpr_host_";
  /** OAuth access tokens of MCP clients (short-lived, for the {@code /mcp} resource only). */
  public static final String OAUTH_ACCESS_PREFIX = "gpr_oat_";
  /** OAuth refresh tokens of MCP clients (one use each). */
  public static final String OAUTH_REFRESH_PREFIX = "gpr_ort_";
  private static final int RANDOM_LENGTH = 32;
  private static final int CHECKSUM_LENGTH = 6;
  private static final int SHOWN_LENGTH = PREFIX.length() + 6;

  private TokenSecrets() {}

  public static String generate() {
    return generate(PREFIX);
  }

  /** A secret of the token shape under another prefix. */
  public static String generate(String prefix) {
    String random = Ids.randomBase62(RANDOM_LENGTH);
    return prefix + random + checksum(random);
  }

  /** Whether the string has the API token shape and a correct checksum. */
  public static boolean wellFormed(String token) {
    return wellFormed(PREFIX, token);
  }

  /** Whether the string has the token shape under {@code prefix} and a correct checksum. */
  public static boolean wellFormed(String prefix, String token) {
    if (token == null || token.length() != prefix.length() + RANDOM_LENGTH + CHECKSUM_LENGTH
        || !token.startsWith(prefix)) {
      return false;
    }
    String random = token.substring(prefix.length(), prefix.length() + RANDOM_LENGTH);
    return random.chars().allMatch(Character::isLetterOrDigit)
        && checksum(random).equals(token.substring(prefix.length() + RANDOM_LENGTH));
  }

  /** The part shown in lists so people can tell their tokens apart. */
  public static String displayPrefix(String token) {
    return token.substring(0, token.lastIndexOf('_') + 1 + SHOWN_LENGTH - PREFIX.length());
  }

  public static byte[] hash(String token) {
    return Hashes.sha256(token);
  }

  private static String checksum(String random) {
    CRC32 crc = new CRC32();
    crc.update(random.getBytes(StandardCharsets.US_ASCII));
    return Ids.base62(crc.getValue(), CHECKSUM_LENGTH);
  }
}
