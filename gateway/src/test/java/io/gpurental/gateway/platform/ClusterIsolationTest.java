package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.FreePorts;
import io.gpurental.gateway.testing.TestDatabase;
import io.gpurental.gateway.testing.TestGateway;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Unrelated installations on one machine never form a cluster, nor share one across databases. */
class ClusterIsolationTest {
  @Test
  void aloneNodesNeverJoinEachOtherEvenWhenOneTakesTheNextPort() {
    // like two installs started from two directories with the defaults: one name, one port
    // range; the second node finds the first port taken and moves to the next one
    int hazelcastPort = FreePorts.next();
    int portCount = 3;
    for (int i = 1; i < portCount; i++) {
      FreePorts.next(); // keeps the range clear of the HTTP ports handed out below
    }
    Map<String, String> first = TestGateway.settings();
    Map<String, String> second = TestGateway.settings();
    for (Map<String, String> node : List.of(first, second)) {
      node.put("GATEWAY_CLUSTER_NAME", "same-defaults-" + hazelcastPort);
      node.put("GATEWAY_CLUSTER_PORT", Integer.toString(hazelcastPort));
      node.put("GATEWAY_CLUSTER_PORT_COUNT", Integer.toString(portCount));
    }
    try (TestGateway a = TestGateway.start(first); TestGateway b = TestGateway.start(second)) {
      assertEquals(1, a.gateway().cluster().getNodes().size(), "first node's members");
      assertEquals(1, b.gateway().cluster().getNodes().size(), "second node's members");
    }
  }

  @Test
  void aNodeOnAnotherDatabaseIsRefusedByTheCluster() {
    int[] ports = {FreePorts.next(), FreePorts.next()};
    String name = "cluster-" + UUID.randomUUID();
    Map<String, String> first = TestGateway.clusterMember(ports, 0, name, TestDatabase.newDatabaseUrl());
    Map<String, String> second = TestGateway.clusterMember(ports, 1, name, TestDatabase.newDatabaseUrl());
    try (TestGateway a = TestGateway.start(first)) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestGateway.start(second).close());
      assertTrue(e.getMessage().contains("every node of a cluster must use the same db.url"), e.getMessage());
      assertEquals(200, a.get("/health/ready").statusCode(), "the first node keeps serving");
    }
  }
}
