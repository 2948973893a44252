package io.gpurental.gateway.auth.oauth;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * Which addresses a fetch on a stranger's behalf may reach: a client metadata document's URL is
 * chosen by whoever calls the authorization endpoint, so without this check the gateway would
 * fetch from its own network (loopback, RFC 1918, CGNAT, link-local with the cloud metadata
 * address, unique-local IPv6) for anyone. IPv6 addresses that carry an IPv4 address (IPv4-mapped
 * and IPv4-compatible) are judged by that IPv4 address; the translation and tunnel prefixes
 * (NAT64 {@code 64:ff9b::/96} and {@code 64:ff9b:1::/48}, 6to4 {@code 2002::/16}, Teredo
 * {@code 2001::/32}) are never public: where they lead depends on a gateway in between, which may
 * well be ours.
 */
final class PublicAddresses {
  private PublicAddresses() {}

  static boolean isPublic(InetAddress address) {
    if (address.isAnyLocalAddress() || address.isLoopbackAddress() || address.isLinkLocalAddress()
        || address.isSiteLocalAddress() || address.isMulticastAddress()) {
      return false;
    }
    byte[] bytes = address.getAddress();
    if (address instanceof Inet4Address) {
      return isPublicIpv4(bytes);
    }
    if (address instanceof Inet6Address) {
      return isPublicIpv6(bytes);
    }
    return false;
  }

  private static boolean isPublicIpv4(byte[] b) {
    int first = b[0] & 0xff;
    int second = b[1] & 0xff;
    int third = b[2] & 0xff;
    boolean privateOrLocal = first == 10 || first == 127 || (first == 172 && second >= 16 && second <= 31)
        || (first == 192 && second == 168) || (first == 169 && second == 254) || first >= 224;
    boolean cgnat = first == 100 && second >= 64 && second <= 127;
    boolean reserved = first == 0
        || (first == 192 && second == 0 && third == 0) // IETF protocol assignments (192.0.0.0/24)
        || (first == 192 && second == 88 && third == 99) // the former 6to4 relay anycast (192.88.99.0/24)
        || (first == 198 && (second == 18 || second == 19));
    return !privateOrLocal && !cgnat && !reserved;
  }

  private static boolean isPublicIpv6(byte[] b) {
    boolean uniqueLocal = (b[0] & 0xfe) == 0xfc;
    boolean nat64 = startsWith(b, 0x00, 0x64, 0xff, 0x9b); // 64:ff9b::/96 and 64:ff9b:1::/48
    boolean sixToFour = startsWith(b, 0x20, 0x02);
    boolean teredo = startsWith(b, 0x20, 0x01, 0x00, 0x00);
    if (uniqueLocal || nat64 || sixToFour || teredo) {
      return false;
    }
    byte[] embedded = embeddedIpv4(b);
    if (embedded != null) {
      try {
        return isPublic(InetAddress.getByAddress(embedded));
      } catch (UnknownHostException e) {
        return false;
      }
    }
    return true;
  }

  /** The IPv4 address inside an IPv4-mapped ({@code ::ffff:a.b.c.d}) or IPv4-compatible ({@code ::a.b.c.d}) one. */
  private static byte[] embeddedIpv4(byte[] b) {
    boolean zeros = Arrays.equals(Arrays.copyOfRange(b, 0, 10), new byte[10]);
    boolean mapped = zeros && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    boolean compatible = zeros && b[10] == 0 && b[11] == 0;
    return mapped || compatible ? Arrays.copyOfRange(b, 12, 16) : null;
  }

  private static boolean startsWith(byte[] b, int... prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if ((b[i] & 0xff) != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
