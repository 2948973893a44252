package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.errors.Invalid;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An instance's SSH host key as the agent reports it ({@code ssh-ed25519 AAAA…}): the gateway
 * computes the fingerprint itself (SHA-256 of the key blob, unpadded base64, as
 * {@code ssh-keygen -l} prints it) and refuses a report whose fingerprint differs.
 */
final class HostKeys {
  private static final Pattern KEY = Pattern.compile("^(ssh-[a-z0-9-]+|ecdsa-sha2-[a-z0-9]+) ([A-Za-z0-9+/]+={0,2})(?: .*)?$");

  private HostKeys() {}

  /** The verified fingerprint and the {@code known_hosts} line for the key at host:port. */
  record Verified(String fingerprint, String knownHostsLine) {}

  static Verified verify(String hostKey, String reportedFingerprint, String host, int port) {
    Matcher key = KEY.matcher(hostKey == null ? "" : hostKey.trim());
    if (!key.matches()) {
      throw invalid("#/ssh/host_key", "not an OpenSSH public key (type and base64 blob)");
    }
    byte[] blob;
    try {
      blob = Base64.getDecoder().decode(key.group(2));
    } catch (IllegalArgumentException e) {
      throw invalid("#/ssh/host_key", "the key is not valid base64");
    }
    String fingerprint = "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(Hashes.sha256(blob));
    if (!fingerprint.equals(reportedFingerprint)) {
      throw invalid("#/ssh/host_key_fingerprint", "does not match host_key (expected " + fingerprint + ")");
    }
    String target = port == 22 ? host : "[" + host + "]:" + port;
    return new Verified(fingerprint, target + " " + key.group(1) + " " + key.group(2));
  }

  private static Invalid invalid(String field, String message) {
    return new Invalid("The reported SSH host key is wrong: " + message + ".",
        List.of(new Invalid.FieldError(field, message)));
  }
}
