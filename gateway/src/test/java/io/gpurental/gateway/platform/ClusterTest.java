package io.gpurental.gateway.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two nodes with the same cluster name and member list form one cluster with one event bus. */
class ClusterTest {
  @Test
  void twoNodesSeeEachOtherAndShareTheEventBus() {
    List<Map<String, String>> cluster = TestGateway.twoNodeCluster();
    try (TestGateway a = TestGateway.start(cluster.get(0));
        TestGateway b = TestGateway.start(cluster.get(1))) {
      assertNotEquals(a.url("/"), b.url("/"));
      assertEquals(2, a.gateway().cluster().getNodes().size());
      assertEquals(2, clusterMembers(a));
      assertEquals(2, clusterMembers(b));

      Promise<String> received = Promise.promise();
      TestGateway.await(b.gateway().vertx().eventBus()
          .<String>consumer("test.greetings", message -> received.tryComplete(message.body()))
          .completion());
      a.gateway().vertx().eventBus().publish("test.greetings", "hello from node A");
      assertEquals("hello from node A", TestGateway.await(received.future()));
    }
  }

  private static int clusterMembers(TestGateway node) {
    JsonArray checks = new JsonObject(node.get("/health/ready").body()).getJsonArray("checks");
    for (Object check : checks) {
      JsonObject json = (JsonObject) check;
      if ("cluster".equals(json.getString("id"))) {
        return json.getJsonObject("data").getInteger("members");
      }
    }
    throw new AssertionError("no cluster check in " + checks);
  }
}
