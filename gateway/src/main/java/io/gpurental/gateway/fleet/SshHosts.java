package io.gpurental.gateway.fleet;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * What an agent may report as an instance's SSH host: a DNS name or an IP literal, nothing else.
 * The renter's {@code ssh} command and {@code known_hosts} line are built from it, so a host
 * credential must not be able to put shell syntax into a terminal or a wildcard ({@code *}) into
 * a {@code known_hosts} line that would then trust the key for every host. The host's
 * {@code public_address} is accepted through the same rule (an address that is not a valid name
 * or IP could not be put into a command either).
 */
public final class SshHosts {
  /** RFC 1123 labels: letters, digits and inner hyphens, 1–63 characters each. */
  private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
  private static final Pattern IPV4 = Pattern.compile(
      "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(?:\\.(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
  private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

  private SshHosts() {}

  /** A syntactically valid DNS name, IPv4 or IPv6 literal (no brackets, no zone, no wildcard). */
  public static boolean valid(String host) {
    if (host == null || host.isEmpty() || host.length() > 253) {
      return false;
    }
    if (IPV4.matcher(host).matches()) {
      return true;
    }
    if (host.indexOf(':') >= 0) {
      return ipv6(host);
    }
    for (String label : host.split("\\.", -1)) {
      if (!LABEL.matcher(label).matches()) {
        return false;
      }
    }
    // a name of digits and dots only is a malformed IPv4 address, not a DNS name
    return !host.matches("[0-9.]+");
  }

  private static boolean ipv6(String host) {
    if (!IPV6_CHARS.matcher(host).matches() || host.chars().filter(c -> c == ':').count() < 2) {
      return false;
    }
    try {
      // a literal of these characters only is parsed, never looked up
      return InetAddress.getByName(host) instanceof java.net.Inet6Address;
    } catch (UnknownHostException e) {
      return false;
    }
  }

}
