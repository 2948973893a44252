package io.gpurental.gateway.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/** What a configured listen address means: only this machine, every interface, or one interface. */
final class HostAddresses {
  private HostAddresses() {}

  /** Only this machine can connect (127.0.0.0/8, ::1, localhost). */
  static boolean isLoopback(String host) {
    return resolve(host).map(InetAddress::isLoopbackAddress).orElse(false);
  }

  /** Every interface (0.0.0.0, ::). */
  static boolean isWildcard(String host) {
    return resolve(host).map(InetAddress::isAnyLocalAddress).orElse(false);
  }

  /** The URL host for a listen address: how a browser on this machine would reach it. */
  static String urlHost(String host) {
    if (isLoopback(host) || isWildcard(host)) {
      return "localhost";
    }
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  private static Optional<InetAddress> resolve(String host) {
    try {
      return Optional.of(InetAddress.getByName(host));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }
}
