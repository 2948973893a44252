package io.gpurental.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A loopback port that is free now (the process started next binds it). */
final class FreePort {
  private FreePort() {}

  static int next() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(Loopback.HOST))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }
}
