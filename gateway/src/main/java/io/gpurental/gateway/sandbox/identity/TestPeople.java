package io.gpurental.gateway.sandbox.identity;

import io.gpurental.gateway.platform.Hashes;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The sandbox's test people. Anyone can be typed in; the same login or email always maps to the
 * same provider subject, so a test person is recognised again after a restart.
 */
final class TestPeople {
  static final List<String> SUGGESTED_LOGINS = List.of("alice", "bob", "operator");
  private static final Pattern LOGIN = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?");
  private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\\.[A-Za-z]{2,}");

  private TestPeople() {}

  static boolean validLogin(String login) {
    return login != null && LOGIN.matcher(login).matches();
  }

  static boolean validEmail(String email) {
    return email != null && EMAIL.matcher(email).matches();
  }

  /** GitHub numeric user id for a login. */
  static long githubId(String login) {
    return Math.floorMod(digest("github:" + login.toLowerCase(Locale.ROOT)), 90_000_000L) + 10_000_000L;
  }

  /** Google subject (a long decimal string) for an email. */
  static String googleSubject(String email) {
    return "1" + String.format("%020d", Math.floorMod(digest("google:" + email.toLowerCase(Locale.ROOT)), Long.MAX_VALUE));
  }

  static String githubEmail(String login) {
    return login.toLowerCase(Locale.ROOT) + "@example.com";
  }

  static String displayName(String loginOrEmail) {
    String base = loginOrEmail.contains("@") ? loginOrEmail.substring(0, loginOrEmail.indexOf('@')) : loginOrEmail;
    return base.isEmpty() ? base : Character.toUpperCase(base.charAt(0)) + base.substring(1);
  }

  private static long digest(String text) {
    byte[] hash = Hashes.sha256(text);
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (hash[i] & 0xff);
    }
    return value;
  }
}
