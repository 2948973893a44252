package io.gpurental.gateway.agents.approvals;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed links to one reservation's approval page: HMAC-SHA256 with the server's
 * {@code mail.link_secret} over the reservation id and the link's expiry (the hold's). A link
 * only opens a confirmation page for the signed-in owner; it never approves by itself, and it
 * works once, because a reservation leaves {@code awaiting_approval} once.
 */
final class ApprovalLinks {
  private static final String ALGORITHM = "HmacSHA256";
  private final byte[] secret;
  private final String publicBase;
  private final Clock clock;

  ApprovalLinks(String secret, String publicBase, Clock clock) {
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
    this.publicBase = publicBase;
    this.clock = clock;
  }

  /** The link to approve or decline {@code reservationId}, valid until {@code expires}. */
  String linkTo(String reservationId, Instant expires) {
    long at = expires.getEpochSecond();
    return publicBase + "/approvals/" + reservationId + "?expires=" + at + "&sig=" + signature(reservationId, at);
  }

  /** Whether the link's parts are this server's signature and it has not expired. */
  boolean valid(String reservationId, String expires, String sig) {
    if (reservationId == null || expires == null || sig == null || !expires.matches("[0-9]{1,12}")) {
      return false;
    }
    long at = Long.parseLong(expires);
    byte[] expected = signature(reservationId, at).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, sig.getBytes(StandardCharsets.US_ASCII))
        && clock.instant().isBefore(Instant.ofEpochSecond(at));
  }

  private String signature(String reservationId, long expires) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(secret, ALGORITHM));
      byte[] sig = mac.doFinal(("approval-link\n" + reservationId + "\n" + expires).getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(sig);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }
}
