package io.gpurental.gateway.auth.oauth;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Which addresses a fetch on a stranger's behalf may reach: a client metadata document's URL is
 * chosen by whoever calls the authorization endpoint, so without this check the gateway would
 * fetch from its own network (loopback, RFC 1918, CGNAT, link-local with the cloud metadata
 * address, unique-local IPv6) for anyone.
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
      int first = bytes[0] & 0xff;
      int second = bytes[1] & 0xff;
      boolean cgnat = first == 100 && second >= 64 && second <= 127;
      boolean reserved = first == 0 || first >= 240 || (first == 192 && second == 0 && (bytes[2] & 0xff) == 0)
          || (first == 198 && (second == 18 || second == 19));
      return !cgnat && !reserved;
    }
    if (address instanceof Inet6Address) {
      boolean uniqueLocal = (bytes[0] & 0xfe) == 0xfc;
      return !uniqueLocal;
    }
    return false;
  }
}
