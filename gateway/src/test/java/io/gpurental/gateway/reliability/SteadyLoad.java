package io.gpurental.gateway.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients sending one GET after another to one node, each on a connection of its own (so a
 * request the node accepted is one whose connection it accepted): answers by status, requests
 * whose accepted connection was cut before an answer, and when the node first refused a
 * connection (after which that client stops). Like clients behind a load balancer, they send no
 * new request once {@code inRotation} says the node is out (its readiness turned 503).
 */
final class SteadyLoad {
  private final GatewayProcess node;
  private final String path;
  private final String token;
  private final java.util.function.BooleanSupplier inRotation;
  private final List<Thread> clients = new ArrayList<>();
  final ConcurrentHashMap<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
  final ConcurrentLinkedQueue<String> cut = new ConcurrentLinkedQueue<>();
  final AtomicInteger answered = new AtomicInteger();
  final AtomicLong firstRefusedNanos = new AtomicLong();
  private volatile boolean stopped;

  SteadyLoad(GatewayProcess node, String path, String token, java.util.function.BooleanSupplier inRotation) {
    this.node = node;
    this.inRotation = inRotation;
    this.path = path;
    this.token = token;
  }

  void start(int clientCount) {
    for (int i = 0; i < clientCount; i++) {
      Thread client = new Thread(this::loop, "steady-load-" + i);
      client.setDaemon(true);
      clients.add(client);
      client.start();
    }
  }

  void stop() throws InterruptedException {
    stopped = true;
    for (Thread client : clients) {
      client.join(60_000);
    }
  }

  private void loop() {
    while (!stopped && inRotation.getAsBoolean()) {
      try (Socket socket = new Socket()) {
        try {
          socket.connect(new InetSocketAddress("127.0.0.1", node.httpPort()), 5_000);
        } catch (ConnectException refused) {
          firstRefusedNanos.compareAndSet(0, System.nanoTime());
          return;
        }
        socket.setSoTimeout(60_000);
        send(socket);
      } catch (IOException e) {
        cut.add(e.toString());
      }
    }
  }

  private void send(Socket socket) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
    String statusLine = in.readLine();
    if (statusLine == null || !statusLine.startsWith("HTTP/1.1 ")) {
      cut.add("no status line: " + statusLine);
      return;
    }
    while (in.read() != -1) {
      // the whole answer, until the node closes the connection as asked
    }
    statuses.computeIfAbsent(Integer.parseInt(statusLine.substring(9, 12)), s -> new AtomicInteger()).incrementAndGet();
    answered.incrementAndGet();
  }
}
