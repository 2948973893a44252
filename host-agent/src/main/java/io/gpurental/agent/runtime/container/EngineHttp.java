package io.gpurental.agent.runtime.container;

import io.vertx.core.json.JsonObject;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * HTTP/1.1 over the engine's unix socket with the JDK alone (Java 16+ {@link UnixDomainSocketAddress}):
 * one connection per call ({@code Connection: close}), a hard deadline after which a watchdog closes
 * the socket (so a wedged engine never pins a worker thread), and a cap on every body read. Blocking:
 * callers run it on worker threads only.
 */
final class EngineHttp {
  /** More than any answer the agent needs (a container listing of a full host is ~100 kB). */
  static final int MAX_BODY = 8 * 1024 * 1024;
  private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "engine-watchdog");
    t.setDaemon(true);
    return t;
  });

  private final Path socket;

  EngineHttp(Path socket) {
    this.socket = socket;
  }

  /** An answer: status and body (JSON text, or empty). */
  record Response(int status, String body) {
    boolean ok() {
      return status >= 200 && status < 300;
    }

    JsonObject json() {
      return body.isBlank() ? new JsonObject() : new JsonObject(body);
    }

    /** The engine's error message, for logs and failure reasons. */
    String message() {
      try {
        return status + " " + json().getString("message", body);
      } catch (RuntimeException e) {
        return status + " " + body.substring(0, Math.min(300, body.length()));
      }
    }
  }

  Response call(String method, String path, JsonObject body, Duration timeout) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = exchange(method, path, body, timeout, in -> copyCapped(in, out));
    return new Response(status, out.toString(StandardCharsets.UTF_8));
  }

  /** For streamed answers (image pulls): each line of the body goes to {@code lines}, up to the cap. */
  int stream(String method, String path, Duration timeout, Consumer<String> lines) throws IOException {
    return exchange(method, path, null, timeout, in -> {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      long total = 0;
      for (int b = in.read(); b != -1; b = in.read()) {
        if (++total > 64L * MAX_BODY) {
          throw new IOException("the engine's answer exceeds " + 64L * MAX_BODY + " bytes");
        }
        if (b == '\n') {
          lines.accept(line.toString(StandardCharsets.UTF_8));
          line.reset();
        } else if (line.size() < MAX_BODY) {
          line.write(b);
        }
      }
      if (line.size() > 0) {
        lines.accept(line.toString(StandardCharsets.UTF_8));
      }
    });
  }

  private interface BodyReader {
    void read(InputStream body) throws IOException;
  }

  private int exchange(String method, String path, JsonObject body, Duration timeout, BodyReader reader)
      throws IOException {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      ScheduledFuture<?> deadline = WATCHDOG.schedule(() -> closeQuietly(channel), timeout.toMillis(),
          TimeUnit.MILLISECONDS);
      try {
        channel.connect(UnixDomainSocketAddress.of(socket));
        byte[] payload = body == null ? new byte[0] : body.encode().getBytes(StandardCharsets.UTF_8);
        String head = method + " " + path + " HTTP/1.1\r\nHost: engine\r\nConnection: close\r\n"
            + (body == null ? "" : "Content-Type: application/json\r\n")
            + "Content-Length: " + payload.length + "\r\n\r\n";
        channel.write(ByteBuffer.wrap(head.getBytes(StandardCharsets.US_ASCII)));
        channel.write(ByteBuffer.wrap(payload));
        InputStream in = new BufferedInputStream(Channels.newInputStream(channel), 16_384);
        int status = Integer.parseInt(readLine(in).split(" ")[1]);
        boolean chunked = false;
        for (String header = readLine(in); !header.isEmpty(); header = readLine(in)) {
          String h = header.toLowerCase(Locale.ROOT);
          chunked |= h.startsWith("transfer-encoding:") && h.contains("chunked");
        }
        reader.read(chunked ? new Chunked(in) : in);
        return status;
      } catch (IOException | RuntimeException e) {
        if (deadline.isDone()) {
          throw new IOException(method + " " + path + " took longer than " + timeout.toSeconds() + " s", e);
        }
        throw e;
      } finally {
        deadline.cancel(false);
      }
    }
  }

  private static void copyCapped(InputStream in, ByteArrayOutputStream out) throws IOException {
    byte[] buffer = new byte[8192];
    for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
      if (out.size() + n > MAX_BODY) {
        throw new IOException("the engine's answer exceeds " + MAX_BODY + " bytes");
      }
      out.write(buffer, 0, n);
    }
  }

  static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b == -1) {
        throw new IOException("the engine closed the connection mid-answer");
      }
      if (line.length() > 16_384) {
        throw new IOException("an HTTP line longer than 16 kB from the engine");
      }
      if (b != '\r') {
        line.append((char) b);
      }
    }
    return line.toString();
  }

  private static void closeQuietly(SocketChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // the call fails on its own with the closed channel
    }
  }

  /** Transfer-Encoding: chunked, decoded. */
  private static final class Chunked extends InputStream {
    private final InputStream in;
    private long left;
    private boolean done;

    Chunked(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      if (done) {
        return -1;
      }
      if (left == 0) {
        String size = readLine(in).split(";")[0].strip();
        if (size.isEmpty()) {
          size = readLine(in).split(";")[0].strip(); // the CRLF that ends the previous chunk
        }
        left = Long.parseLong(size, 16);
        if (left == 0) {
          done = true;
          return -1;
        }
      }
      int b = in.read();
      if (b == -1) {
        throw new IOException("the engine closed the connection mid-chunk");
      }
      left--;
      return b;
    }
  }
}
