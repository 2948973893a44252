package io.gpurental.gateway.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports nobody listens on right now, for nodes started by tests. They are taken below the
 * kernel's ephemeral range (32768+ on Linux): a listening port from that range can meanwhile
 * become the source port of an outgoing connection, and a node dialling a member that is not
 * listening yet can even connect to itself (TCP self-connect), which Hazelcast reports as
 * "Connecting to self" and never recovers from.
 */
public final class FreePorts {
  /** Test JVMs run side by side (surefire forks 1, 2, …): each takes ports from a range of its own. */
  private static final int FORK = Integer.getInteger("test.fork", 1);
  private static final int RANGE = 3_000;
  private static final int FIRST = 20_000 + (FORK - 1) % 4 * RANGE;
  private static final int LAST = FIRST + RANGE - 1;
  private static final AtomicInteger NEXT = new AtomicInteger(FIRST + ThreadLocalRandom.current().nextInt(LAST - FIRST));

  private FreePorts() {}

  public static int next() {
    for (int tries = 0; tries < LAST - FIRST; tries++) {
      int port = NEXT.getAndUpdate(p -> p >= LAST ? FIRST : p + 1);
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException taken) {
        // someone listens there: try the next one
      }
    }
    throw new IllegalStateException("no free port between " + FIRST + " and " + LAST);
  }
}
