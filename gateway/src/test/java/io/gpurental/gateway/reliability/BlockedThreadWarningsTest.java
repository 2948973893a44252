package io.gpurental.gateway.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The start test's reading of blocked-thread warnings: blocking work is told from slow computing. */
class BlockedThreadWarningsTest {
  private static final List<String> LOG = List.of(
      "05:35:23.838 WARN  i.v.core.impl.BlockedThreadChecker - Thread vert.x-eventloop-thread-2 has been blocked"
          + " for 2461 ms, time limit is 2000 ms",
      "io.vertx.core.VertxException: Thread blocked",
      "\tat java.base@17.0.15/java.lang.invoke.LambdaForm.compileToBytecode(LambdaForm.java:851)",
      "\tat app//io.netty.channel.socket.nio.NioSocketChannel.doReadBytes(NioSocketChannel.java:350)",
      "05:35:24.001 WARN  c.h.i.cluster.impl.MembershipManager - something else",
      "java.net.SocketException: Connection reset",
      "\tat java.base/java.lang.Thread.sleep(Native Method)",
      "05:35:25.100 WARN  i.v.core.impl.BlockedThreadChecker - Thread vert.x-eventloop-thread-0 has been blocked"
          + " for 3100 ms, time limit is 2000 ms",
      "io.vertx.core.VertxException: Thread blocked",
      "\tat java.base@17.0.15/java.lang.Thread.sleep(Native Method)",
      "\tat app//io.gpurental.gateway.Gateway.lambda$start$1(Gateway.java:10)");

  @Test
  void aWarningWhoseStackShowsBlockingWorkIsBlockingAndSlowComputingIsNot() {
    BlockedThreadWarnings warnings = new BlockedThreadWarnings(BlockedThreadWarnings.parse("node1", LOG));
    assertEquals(2, warnings.warnings().size());
    assertNull(warnings.warnings().get(0).blockingFrame(), "a JIT-linking frame is computing, not blocking");
    assertEquals(1, warnings.blocking().size());
    assertTrue(warnings.blocking().get(0).blockingFrame().contains("Thread.sleep"));
    assertEquals(3100, warnings.longestMillis());
  }
}
