package io.gpurental.gateway.testing;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A TCP relay to a server (the test PostgreSQL) that can be frozen like a hung server: it keeps
 * every socket open and accepts new connections, but relays no byte until it is thawed.
 */
public final class FreezableProxy implements AutoCloseable {
  private final Vertx vertx = Vertx.vertx();
  private final Context context = vertx.getOrCreateContext();
  private final String targetHost;
  private final int targetPort;
  private final Set<NetSocket> relaying = new HashSet<>();
  private final List<NetSocket> waiting = new ArrayList<>();
  private NetClient client;
  private NetServer server;
  private boolean frozen;

  private FreezableProxy(String targetHost, int targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
  }

  /** A proxy on a free loopback port in front of {@code targetHost:targetPort}. */
  public static FreezableProxy start(String targetHost, int targetPort) {
    FreezableProxy proxy = new FreezableProxy(targetHost, targetPort);
    TestGateway.await(proxy.onContext(proxy::listen).compose(listening -> listening));
    return proxy;
  }

  public int port() {
    return server.actualPort();
  }

  /** Stops relaying: open sockets stay open and silent, new connections are accepted and left waiting. */
  public void freeze() {
    TestGateway.await(onContext(() -> {
      frozen = true;
      relaying.forEach(NetSocket::pause);
      return null;
    }));
  }

  /** Relays again, the bytes held while frozen first, and connects the connections that waited. */
  public void thaw() {
    TestGateway.await(onContext(() -> {
      frozen = false;
      relaying.forEach(NetSocket::resume);
      waiting.forEach(this::connect);
      waiting.clear();
      return null;
    }));
  }

  @Override
  public void close() {
    TestGateway.await(vertx.close());
  }

  private Future<Void> listen() {
    client = vertx.createNetClient();
    server = vertx.createNetServer().connectHandler(downstream -> {
      downstream.pause();
      if (frozen) {
        waiting.add(downstream);
      } else {
        connect(downstream);
      }
    });
    return server.listen(0, "127.0.0.1").mapEmpty();
  }

  private void connect(NetSocket downstream) {
    client.connect(targetPort, targetHost).onSuccess(upstream -> {
      relay(downstream, upstream);
      relay(upstream, downstream);
    }).onFailure(e -> downstream.close());
  }

  private void relay(NetSocket from, NetSocket to) {
    relaying.add(from);
    from.handler(to::write);
    from.closeHandler(v -> {
      relaying.remove(from);
      to.close();
    });
    if (!frozen) {
      from.resume();
    } else {
      from.pause();
    }
  }

  /** Runs on the proxy's one event loop, where all its sockets live, so its state needs no locks. */
  private <T> Future<T> onContext(java.util.function.Supplier<T> action) {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> done.complete(action.get()));
    return done.future();
  }
}
