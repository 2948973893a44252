package io.gpurental.gateway.pricing;

import io.gpurental.gateway.platform.Ids;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Quote ids: {@code quo_<random>.<expiry epoch seconds>.<HMAC-SHA256>}. The signature (with the
 * cluster's shared key) makes ids unforgeable and unalterable, and lets an expired quote be told
 * apart from one that never existed after the cluster has forgotten it.
 */
final class QuoteIds {
  private static final String PREFIX = "quo_";
  private final SecretKeySpec key;

  QuoteIds(String signingKey) {
    this.key = new SecretKeySpec(signingKey.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  /** A decoded, correctly signed id. */
  record QuoteId(String value, String random, Instant expiresAt) {}

  QuoteId issue(Instant expiresAt) {
    String body = PREFIX + Ids.randomBase62(24) + "." + expiresAt.getEpochSecond();
    return new QuoteId(body + "." + sign(body), body.substring(PREFIX.length(), body.indexOf('.')), expiresAt);
  }

  /** The id when it is well-formed and its signature is ours; empty for anything forged or altered. */
  Optional<QuoteId> verify(String id) {
    if (id == null || !id.startsWith(PREFIX) || id.length() > 200) {
      return Optional.empty();
    }
    int lastDot = id.lastIndexOf('.');
    int firstDot = id.indexOf('.');
    if (firstDot < 0 || lastDot <= firstDot) {
      return Optional.empty();
    }
    String body = id.substring(0, lastDot);
    byte[] expected = sign(body).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(expected, id.substring(lastDot + 1).getBytes(StandardCharsets.US_ASCII))) {
      return Optional.empty();
    }
    try {
      Instant expires = Instant.ofEpochSecond(Long.parseLong(id.substring(firstDot + 1, lastDot)));
      return Optional.of(new QuoteId(id, id.substring(PREFIX.length(), firstDot), expires));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private String sign(String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }
}
