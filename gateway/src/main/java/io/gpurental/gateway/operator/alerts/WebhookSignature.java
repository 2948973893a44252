package io.gpurental.gateway.operator.alerts;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Gateway-Signature} header, made like Stripe's: {@code t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>" under the webhook secret>}. The receiver recomputes it over the raw
 * body and rejects an old {@code t} (docs/operating.md "Alerts" has a verification snippet).
 */
final class WebhookSignature {
  static final String HEADER = "Gateway-Signature";

  private WebhookSignature() {}

  static String header(String secret, long unixSeconds, String body) {
    return "t=" + unixSeconds + ",v1=" + hmac(secret, unixSeconds + "." + body);
  }

  static String hmac(String secret, String signed) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
