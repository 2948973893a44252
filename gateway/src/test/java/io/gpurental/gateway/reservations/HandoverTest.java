package io.gpurental.gateway.reservations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.fleet.InstanceEvents;
import io.gpurental.gateway.fleet.SshAccess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A handover the host's side refuses for a moment (AgentsUnderFaultsTest's 19 of 200 launches
 * refused with "Connection pool reached max wait queue size of 200" waited for the 2-minute stuck
 * pass, past the test's limit) is tried again at once after a short backoff.
 */
class HandoverTest {
  private final Vertx vertx = Vertx.vertx();
  private static final Fleet.Launch LAUNCH = new Fleet.Launch("rsv_h", "hst_h", List.of(0), "ssh-ed25519 AAAA k",
      Instant.now().plusSeconds(3600), Instant.now());
  private static final InstanceEvents EVENTS = new InstanceEvents() {
    @Override
    public Future<Boolean> running(String reservationId, SshAccess ssh) {
      return Future.succeededFuture(true);
    }

    @Override
    public Future<Boolean> failed(String reservationId, String reason) {
      return Future.succeededFuture(true);
    }
  };

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void aRefusedHandoverIsTriedAgainUntilTheHostTakesIt() {
    AtomicInteger calls = new AtomicInteger();
    Fleet busyTwice = refusing(calls, 2);
    new Handover(vertx, busyTwice, 1).start(LAUNCH, EVENTS).await();
    assertEquals(3, calls.get(), "two refusals, then taken");
  }

  @Test
  void afterTheLastTryTheFailureIsLeftToTheStuckPass() {
    AtomicInteger calls = new AtomicInteger();
    Fleet alwaysBusy = refusing(calls, Integer.MAX_VALUE);
    assertThrows(IllegalStateException.class, () -> new Handover(vertx, alwaysBusy, 1).start(LAUNCH, EVENTS).await());
    assertEquals(Handover.TRIES, calls.get());
  }

  private static Fleet refusing(AtomicInteger calls, int refusals) {
    return new Fleet() {
      @Override
      public Future<Void> start(Launch launch, InstanceEvents events) {
        return calls.incrementAndGet() <= refusals
            ? Future.failedFuture(new IllegalStateException("Connection pool reached max wait queue size of 200"))
            : Future.succeededFuture();
      }

      @Override
      public Future<Void> stop(String reservationId) {
        return Future.succeededFuture();
      }
    };
  }
}
