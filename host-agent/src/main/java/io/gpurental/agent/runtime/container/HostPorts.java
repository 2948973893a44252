package io.gpurental.agent.runtime.container;

import io.gpurental.agent.runtime.InstanceFailure;
import io.gpurental.agent.runtime.PortRange;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Host ports of the agent's range, per instance: free in the agent's books and free to bind. */
final class HostPorts {
  private static final long READY_TIMEOUT_MS = 15_000;

  private final PortRange range;
  private final Map<String, List<Integer>> byInstance = new HashMap<>();

  HostPorts(PortRange range) {
    this.range = range;
  }

  synchronized void taken(String id, List<Integer> ports) {
    byInstance.put(id, List.copyOf(ports));
  }

  /** {@code forwarded}: ports the engine's NAT rules still name (see EgressRules#forwardedPorts). */
  synchronized List<Integer> reserve(String id, int count, java.util.Set<Integer> forwarded) {
    byInstance.remove(id);
    java.util.Set<Integer> used = new java.util.HashSet<>(forwarded);
    byInstance.values().forEach(used::addAll);
    List<Integer> chosen = new ArrayList<>();
    for (int port = range.first(); port <= range.last() && chosen.size() < count; port++) {
      if (!used.contains(port) && bindable(port)) {
        chosen.add(port);
      }
    }
    if (chosen.size() < count) {
      throw new InstanceFailure(InstanceFailure.RUNTIME_ERROR, "no " + count + " free ports in " + range);
    }
    byInstance.put(id, List.copyOf(chosen));
    return chosen;
  }

  synchronized void release(String id) {
    byInstance.remove(id);
  }

  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Bounded wait until the published SSH port takes connections (the engine forwards it into the
   * container, so this is dropbear listening). Only a connect: nothing is read from the container.
   */
  static void awaitListening(int port) {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
    while (System.currentTimeMillis() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException e) {
        pause();
      }
    }
    throw new InstanceFailure(InstanceFailure.SSHD_FAILED, "nothing answers on port " + port + " after "
        + READY_TIMEOUT_MS / 1000 + " s: dropbear did not start in the container");
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InstanceFailure(InstanceFailure.TIMEOUT, "interrupted while waiting for sshd");
    }
  }
}
