package io.gpurental.gateway.platform.jobs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.gpurental.gateway.testing.AloneMember;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A job's Hazelcast lock is freed only by its owner: the late unlock of a run that lost the lock
 * (its node was dropped from the cluster while frozen) leaves the new owner's lock alone.
 */
class HazelcastJobLocksTest {
  private static HazelcastInstance hazelcast;
  private static Vertx frozenNode;
  private static Vertx otherNode;

  @BeforeAll
  static void start() {
    hazelcast = Hazelcast.newHazelcastInstance(AloneMember.config("job-locks"));
    frozenNode = Vertx.vertx();
    otherNode = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    TestGateway.await(frozenNode.close());
    TestGateway.await(otherNode.close());
    hazelcast.shutdown();
  }

  @Test
  void aLateUnlockLeavesTheNewOwnersLockAlone() {
    JobLocks frozen = JobLocks.hazelcast(frozenNode, hazelcast);
    JobLocks other = JobLocks.hazelcast(otherNode, hazelcast);
    assertTrue(TestGateway.await(frozen.tryLock("jobs.late")));
    assertFalse(TestGateway.await(other.tryLock("jobs.late")), "held by the first");
    hazelcast.getMap("gateway.job-locks").forceUnlock("jobs.late"); // what the cluster does when it drops a member
    assertTrue(TestGateway.await(other.tryLock("jobs.late")), "the other node runs the job now");

    TestGateway.await(frozen.unlock("jobs.late")); // the thawed node's run ends
    assertFalse(TestGateway.await(frozen.tryLock("jobs.late")), "still the other node's");
    TestGateway.await(other.unlock("jobs.late"));
    assertTrue(TestGateway.await(frozen.tryLock("jobs.late")), "its owner freed it");
    TestGateway.await(frozen.unlock("jobs.late"));
  }
}
