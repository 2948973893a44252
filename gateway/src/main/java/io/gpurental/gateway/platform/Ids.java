package io.gpurental.gateway.platform;

import java.security.SecureRandom;

/** Public ids: a type prefix and random base62, e.g. {@code acc_3kTMd9Qx1aB7Lm2p}. */
public final class Ids {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] BASE62 =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final int ID_LENGTH = 16;

  private Ids() {}

  public static String newId(String prefix) {
    return prefix + "_" + randomBase62(ID_LENGTH);
  }

  /** {@code length} characters of base62 from a cryptographically strong source. */
  public static String randomBase62(int length) {
    StringBuilder out = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      out.append(BASE62[RANDOM.nextInt(BASE62.length)]);
    }
    return out.toString();
  }

  /** A non-negative number in base62, left-padded with zeros to {@code width}. */
  public static String base62(long value, int width) {
    StringBuilder out = new StringBuilder();
    long rest = value;
    do {
      out.append(BASE62[(int) (rest % 62)]);
      rest /= 62;
    } while (rest > 0);
    while (out.length() < width) {
      out.append('0');
    }
    return out.reverse().toString();
  }
}
