package io.gpurental.gateway.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Without host agents the scheduler asks again every tick; the operator is told once per reservation. */
class NoHostAgentsTest {
  private static final InstanceEvents NO_REPORTS = new InstanceEvents() {
    @Override
    public Future<Boolean> running(String reservationId, SshAccess ssh) {
      throw new AssertionError("no host reports without agents");
    }

    @Override
    public Future<Boolean> failed(String reservationId, String reason) {
      throw new AssertionError("no host reports without agents");
    }
  };
  private final Logger logger = (Logger) LoggerFactory.getLogger(NoHostAgents.class);
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void capture() {
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void release() {
    logger.detachAppender(logged);
  }

  @Test
  void eachReservationsStartIsLoggedOnce() {
    NoHostAgents launcher = new NoHostAgents();
    for (int tick = 0; tick < 3; tick++) {
      launcher.start(launch("rsv_a"), NO_REPORTS);
      launcher.start(launch("rsv_b"), NO_REPORTS);
    }
    assertEquals(2, lines("rsv_a") + lines("rsv_b"), "one line per reservation, not per tick");
    assertEquals(1, lines("rsv_a"));

    launcher.stop("rsv_a");
    assertEquals(2, lines("rsv_a"), "its end is logged too");
  }

  private static Fleet.Launch launch(String id) {
    return new Fleet.Launch(id, "host_1", List.of(0, 1), "ssh-ed25519 AAAA test", Instant.parse("2026-12-01T10:00:00Z"),
        Instant.parse("2026-12-01T08:00:00Z"));
  }

  private long lines(String reservationId) {
    return logged.list.stream().filter(e -> e.getFormattedMessage().contains(reservationId)).count();
  }
}
