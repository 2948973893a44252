package io.gpurental.gateway.platform.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.gpurental.gateway.platform.db.DatabaseIdentity;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Refuses a cluster whose members use another database. Each node publishes its database
 * identity under its member id, then compares it with those of the current members: sessions,
 * quotes and leases shared with a node that writes elsewhere would mix two installations.
 * Blocking (Hazelcast map calls): call off the event loop.
 */
public final class SameDatabase {
  static final String MAP = "gateway.member-databases";

  private SameDatabase() {}

  /** Publishes this node's identity and fails (one line) if a current member's differs. */
  public static void verify(HazelcastInstance hazelcast, DatabaseIdentity identity) {
    IMap<UUID, String> databases = hazelcast.getMap(MAP);
    UUID self = hazelcast.getCluster().getLocalMember().getUuid();
    Set<UUID> members = hazelcast.getCluster().getMembers().stream().map(Member::getUuid).collect(Collectors.toSet());
    String mine = identity.toString();
    // publish first, then compare: of two mismatched nodes starting at once, at least one sees the other
    databases.set(self, mine);
    for (Map.Entry<UUID, String> entry : databases.entrySet()) {
      if (!members.contains(entry.getKey())) {
        databases.remove(entry.getKey(), entry.getValue()); // a member that has left
      } else if (!entry.getValue().equals(mine)) {
        databases.remove(self);
        throw new IllegalStateException("cluster.members: member " + entry.getKey() + " uses " + entry.getValue()
            + " but this node uses " + mine + "; every node of a cluster must use the same db.url");
      }
    }
  }
}
