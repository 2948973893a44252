package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import java.time.Duration;

/**
 * The desired-state long poll: answers at once when the host's version is past what the agent
 * has, else waits (bounded) for a change announced on the host's clustered event-bus address, so
 * the node that changed the state may be another than the one holding the poll. Nothing blocks:
 * the wait is a consumer and a timer.
 */
final class DesiredStateWaits {
  private static final String ADDRESS_PREFIX = "fleet.desired-state.";
  private final Vertx vertx;
  private final InstanceRepository instances;

  DesiredStateWaits(Vertx vertx, InstanceRepository instances) {
    this.vertx = vertx;
    this.instances = instances;
  }

  /** Tells every node that the host's desired state changed. */
  void changed(String hostId) {
    vertx.eventBus().publish(ADDRESS_PREFIX + hostId, hostId);
  }

  /**
   * The host's desired state once its version exceeds {@code afterVersion} (null: at once), or
   * as it is after {@code wait}. The listener is registered before the state is read, so a change
   * between the two is not missed.
   */
  Future<DesiredState> await(String hostId, Long afterVersion, Duration wait, Future<?> abandoned) {
    if (afterVersion == null || wait.isZero()) {
      return instances.desiredState(hostId);
    }
    Promise<Void> woken = Promise.promise();
    MessageConsumer<String> consumer = vertx.eventBus().consumer(ADDRESS_PREFIX + hostId, message -> woken.tryComplete());
    long timer = vertx.setTimer(wait.toMillis(), id -> woken.tryComplete());
    abandoned.onComplete(done -> woken.tryComplete());
    return consumer.completion()
        .compose(v -> instances.desiredState(hostId))
        .compose(now -> now.version() > afterVersion ? Future.succeededFuture(now)
            : woken.future().compose(v -> instances.desiredState(hostId)))
        .onComplete(done -> {
          vertx.cancelTimer(timer);
          consumer.unregister();
        });
  }
}
