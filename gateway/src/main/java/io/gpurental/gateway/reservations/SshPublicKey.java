package io.gpurental.gateway.reservations;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.errors.Invalid;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * An OpenSSH public key ({@code type base64 [comment]}) that was checked: ed25519, ECDSA
 * (nistp256/384/521) or RSA of at least 2048 bits, with its SHA256 fingerprint as
 * {@code ssh-keygen -l} prints it.
 */
public record SshPublicKey(String type, String text, String fingerprint) {
  private static final Set<String> ECDSA = Set.of("ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521");
  private static final int MIN_RSA_BITS = 2048;

  /** Parses and validates; 400 naming {@code pointer} when the key is not acceptable. */
  public static SshPublicKey parse(String line, String pointer) {
    if (line != null && line.strip().chars().anyMatch(Character::isISOControl)) {
      throw invalid(pointer, "give one key on one line, without control characters");
    }
    String[] parts = line == null ? new String[0] : line.trim().split("\\s+", 3);
    if (parts.length < 2) {
      throw invalid(pointer, "expected an OpenSSH public key like 'ssh-ed25519 AAAA… comment'");
    }
    byte[] blob;
    try {
      blob = Base64.getDecoder().decode(parts[1]);
    } catch (IllegalArgumentException e) {
      throw invalid(pointer, "the key data is not base64");
    }
    ByteBuffer buffer = ByteBuffer.wrap(blob);
    String type = string(buffer, pointer);
    if (!type.equals(parts[0])) {
      throw invalid(pointer, "the key says it is " + type + " but is labelled " + parts[0]);
    }
    switch (type) {
      case "ssh-ed25519" -> {
        if (bytes(buffer, pointer).length != 32) {
          throw invalid(pointer, "an ed25519 key has 32 bytes");
        }
      }
      case "ssh-rsa" -> {
        bytes(buffer, pointer);
        int bits = new BigInteger(1, bytes(buffer, pointer)).bitLength();
        if (bits < MIN_RSA_BITS) {
          throw invalid(pointer, "RSA keys need at least " + MIN_RSA_BITS + " bits (this one has " + bits + ")");
        }
      }
      default -> {
        if (!ECDSA.contains(type)) {
          throw invalid(pointer, "use an ed25519, ECDSA or RSA (≥ 2048 bits) key, not " + type);
        }
        String curve = string(buffer, pointer);
        if (!type.equals("ecdsa-sha2-" + curve) || bytes(buffer, pointer).length == 0) {
          throw invalid(pointer, "the ECDSA key data is malformed");
        }
      }
    }
    if (buffer.hasRemaining()) {
      throw invalid(pointer, "the key data has trailing bytes");
    }
    return new SshPublicKey(type, parts[0] + " " + parts[1] + (parts.length > 2 ? " " + parts[2] : ""),
        "SHA256:" + Base64.getEncoder().withoutPadding().encodeToString(Hashes.sha256(blob)));
  }

  private static String string(ByteBuffer buffer, String pointer) {
    return new String(bytes(buffer, pointer), StandardCharsets.US_ASCII);
  }

  private static byte[] bytes(ByteBuffer buffer, String pointer) {
    if (buffer.remaining() < 4) {
      throw invalid(pointer, "the key data is truncated");
    }
    int length = buffer.getInt();
    if (length < 0 || length > buffer.remaining()) {
      throw invalid(pointer, "the key data is truncated");
    }
    byte[] value = new byte[length];
    buffer.get(value);
    return value;
  }

  private static Invalid invalid(String pointer, String detail) {
    return new Invalid("The SSH public key is not acceptable: " + detail + ".",
        List.of(new Invalid.FieldError(pointer, detail)));
  }
}
