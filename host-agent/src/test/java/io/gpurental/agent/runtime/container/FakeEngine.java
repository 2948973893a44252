package io.gpurental.agent.runtime.container;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A Docker Engine API stand-in on a unix socket, for what the real Podman of these machines cannot
 * show: a Docker daemon (its {@code /info} security options), an engine that answers a create with
 * an error of the test's choosing, a pull whose progress names its size. Each request goes to the
 * test's handler; every request is recorded.
 */
public final class FakeEngine implements AutoCloseable {
  /** One request as the engine saw it. */
  public record Request(String method, String path, String body) {
    public JsonObject json() {
      return body.isBlank() ? new JsonObject() : new JsonObject(body);
    }
  }

  /** An answer: a status and body, or (with {@code stream}) lines written one by one. */
  public record Answer(int status, String body, Streamer stream) {
    public static Answer json(int status, Object body) {
      return new Answer(status, body instanceof String s ? s : String.valueOf(body), null);
    }
  }

  /** Writes a streamed body; it may block on {@code in} to see the client hang up. */
  public interface Streamer {
    void write(OutputStream out, InputStream in) throws IOException;
  }

  public final Path socket;
  public final List<Request> requests = new CopyOnWriteArrayList<>();
  private final ServerSocketChannel server;
  private final Function<Request, Answer> handler;

  public FakeEngine(Path dir, Function<Request, Answer> handler) throws IOException {
    this.socket = dir.resolve("engine.sock");
    Files.deleteIfExists(socket);
    this.handler = handler;
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    Thread acceptor = new Thread(this::accept, "fake-engine");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The answers of a Docker Engine without user namespaces (or with, per {@code securityOptions}). */
  public static Answer docker(Request r, String securityOptions) {
    if (r.path().endsWith("/version")) {
      return Answer.json(200, "{\"Version\":\"27.1.0\",\"Components\":[{\"Name\":\"Engine\",\"Version\":\"27.1.0\"}]}");
    }
    if (r.path().endsWith("/info")) {
      return Answer.json(200, "{\"Driver\":\"overlay2\",\"SecurityOptions\":" + securityOptions + "}");
    }
    if (r.path().contains("/volumes?")) {
      return Answer.json(200, "{\"Volumes\":[]}");
    }
    if (r.method().equals("GET") && r.path().contains("/json") || r.path().contains("/networks?")) {
      return r.path().matches(".*/(containers|images)/json.*|.*/networks\\?.*") ? Answer.json(200, "[]")
          : Answer.json(404, "{\"message\":\"no such object\"}");
    }
    return Answer.json(404, "{\"message\":\"not in this fake: " + r.method() + " " + r.path() + "\"}");
  }

  private void accept() {
    while (server.isOpen()) {
      try {
        SocketChannel channel = server.accept();
        Thread t = new Thread(() -> serve(channel), "fake-engine-call");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(SocketChannel channel) {
    try (channel) {
      InputStream in = Channels.newInputStream(channel);
      OutputStream out = Channels.newOutputStream(channel);
      String[] line = EngineHttp.readLine(in).split(" ");
      int length = 0;
      for (String header = EngineHttp.readLine(in); !header.isEmpty(); header = EngineHttp.readLine(in)) {
        if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(header.substring(15).strip());
        }
      }
      byte[] body = in.readNBytes(length);
      Request request = new Request(line[0], line[1], new String(body, StandardCharsets.UTF_8));
      requests.add(request);
      Answer answer = handler.apply(request);
      String head = "HTTP/1.1 " + answer.status() + " X\r\nContent-Type: application/json\r\nConnection: close\r\n";
      if (answer.stream() != null) {
        out.write((head + "\r\n").getBytes(StandardCharsets.US_ASCII));
        answer.stream().write(out, in);
      } else {
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        out.write((head + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
      }
      out.flush();
    } catch (IOException | RuntimeException e) {
      // the client hung up: that is what some tests wait for
    }
  }

  /** The request bodies of {@code method path…} calls so far. */
  public List<Request> calls(String method, String pathPart) {
    return requests.stream().filter(r -> r.method().equals(method) && r.path().contains(pathPart)).toList();
  }

  static byte[] lines(String... lines) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String l : lines) {
      out.writeBytes((l + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  @Override
  public void close() throws IOException {
    server.close();
    Files.deleteIfExists(socket);
  }
}
