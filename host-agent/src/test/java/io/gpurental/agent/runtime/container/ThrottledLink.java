package io.gpurental.agent.runtime.container;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy whose answers flow at a fixed rate, counting the bytes it passed on: a
 * registry behind it is a registry on a slow link, where the engine's pull progress names each
 * layer's size (Podman 4.3 sends none on a loopback pull, which ends before its first tick).
 */
final class ThrottledLink implements AutoCloseable {
  private static final int CHUNK = 16 * 1024;

  private final ServerSocket server;
  private final int targetPort;
  private final long bytesPerSecond;
  /** Bytes passed from the target to the clients so far. */
  final AtomicLong delivered = new AtomicLong();

  ThrottledLink(int targetPort, long bytesPerSecond) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.targetPort = targetPort;
    this.bytesPerSecond = bytesPerSecond;
    daemon(this::accept, "throttled-link");
  }

  int port() {
    return server.getLocalPort();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        daemon(() -> copy(client, target, false), "throttled-link-up");
        daemon(() -> copy(target, client, true), "throttled-link-down");
      } catch (IOException e) {
        return;
      }
    }
  }

  /** Copies until either side ends; downstream at the link's rate (a pause per chunk, as a slow link would). */
  private void copy(Socket from, Socket to, boolean downstream) {
    byte[] buffer = new byte[CHUNK];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
        if (downstream) {
          delivered.addAndGet(n);
          Thread.sleep(n * 1000L / bytesPerSecond);
        }
      }
    } catch (IOException | InterruptedException e) {
      // one side hung up: so does the other, below
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already gone
    }
  }

  private static void daemon(Runnable body, String name) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
