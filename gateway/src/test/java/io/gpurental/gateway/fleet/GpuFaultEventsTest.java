package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A GPU turning faulty interrupts exactly the running instances that use it, through the events
 * the instance was started with; healthy again after being faulty resumes them; a degraded GPU
 * (still serving) does neither.
 */
@GatewayTest
class GpuFaultEventsTest {
  @Test
  void faultyInterruptsTheInstancesOnThatGpuAndHealthyResumesThem(TestGateway node,
      @SignedIn("operator") ApiClient operator) {
    FakeAgent agent = AgentInstancesTest.activeHost(node, operator);
    InstanceRepository instances = new InstanceRepository(node.gateway().pool());
    AgentFleet fleet = new AgentFleet(instances, new DesiredStateWaits(node.gateway().vertx(), instances),
        new NoHostAgents());
    Recording events = new Recording();
    Instant ends = Instant.now().plus(2, ChronoUnit.HOURS);
    TestGateway.await(fleet.start(new Fleet.Launch("rsv_gpufault1", agent.hostId(), List.of(1, 2), ApiClient.SSH_KEY,
        ends, Instant.now()), events));
    TestGateway.await(fleet.start(new Fleet.Launch("rsv_gpufault2", agent.hostId(), List.of(3), ApiClient.SSH_KEY,
        ends, Instant.now()), events));
    TestGateway.await(fleet.start(new Fleet.Launch("rsv_gpufault3", agent.hostId(), List.of(1), ApiClient.SSH_KEY,
        ends, Instant.now()), events));
    node.sql("UPDATE instances SET state = 'running' WHERE reservation_id IN ('rsv_gpufault1', 'rsv_gpufault2')");
    Instant since = Instant.parse("2026-12-01T10:00:00Z");

    change(fleet, agent, new HealthRepository.GpuChange(1, "healthy", "degraded", "too hot", since));
    assertEquals(List.of(), events.calls, "a degraded GPU still serves");
    change(fleet, agent, new HealthRepository.GpuChange(1, "degraded", "faulty", "uncorrected ECC errors: 2", since));
    assertEquals(List.of("interrupted rsv_gpufault1 gpu faulty: GPU 1, uncorrected ECC errors: 2 " + since),
        events.calls, "only the running instance on GPU 1 (rsv_gpufault3 is not running yet)");
    Instant back = since.plusSeconds(600);
    change(fleet, agent, new HealthRepository.GpuChange(1, "faulty", "healthy", null, back));
    assertEquals("resumed rsv_gpufault1 " + back, events.calls.get(1));
    assertEquals(2, events.calls.size());
  }

  private static void change(AgentFleet fleet, FakeAgent agent, HealthRepository.GpuChange change) {
    TestGateway.await(fleet.gpuHealthChanged(agent.hostId(), change));
  }

  /** Remembers the interruptions and resumptions it is told of. */
  private static final class Recording implements InstanceEvents {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public Future<Boolean> running(String reservationId, SshAccess ssh) {
      return Future.succeededFuture(true);
    }

    @Override
    public Future<Boolean> failed(String reservationId, String reason) {
      return Future.succeededFuture(true);
    }

    @Override
    public Future<Boolean> interrupted(String reservationId, String reason, Instant since) {
      calls.add("interrupted " + reservationId + " " + reason + " " + since);
      return Future.succeededFuture(true);
    }

    @Override
    public Future<Boolean> resumed(String reservationId, Instant at) {
      calls.add("resumed " + reservationId + " " + at);
      return Future.succeededFuture(true);
    }
  }
}
