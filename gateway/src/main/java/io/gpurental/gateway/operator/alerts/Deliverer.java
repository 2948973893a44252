package io.gpurental.gateway.operator.alerts;

import io.gpurental.gateway.config.AlertsConfig;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the notifications that are due (a cluster job, so retries survive restarts and move to
 * another node with the job): each attempt is logged, a failure is retried after an exponentially
 * growing wait, and after {@code alerts.delivery.max_attempts} the delivery is given up as failed.
 */
final class Deliverer {
  private static final Logger LOG = LoggerFactory.getLogger(Deliverer.class);
  private static final int BATCH = 50;
  private final DeliveryRepository deliveries;
  private final Map<String, Channel> channels;
  private final AlertsConfig.Delivery policy;

  Deliverer(DeliveryRepository deliveries, Map<String, Channel> channels, AlertsConfig.Delivery policy) {
    this.deliveries = deliveries;
    this.channels = channels;
    this.policy = policy;
  }

  Future<Void> deliverDue() {
    // a claim outlives the attempt, so only a node that died mid-send lets another one retry it
    Duration lease = policy.timeout().multipliedBy(2).plusSeconds(5);
    return deliveries.claimDue(BATCH, lease).compose(due -> Future.join(due.stream().map(this::deliver).toList()))
        .mapEmpty();
  }

  private Future<Void> deliver(Notification notification) {
    Channel channel = channels.get(notification.channel());
    Future<Outcome> sent = channel == null
        ? Future.succeededFuture(Outcome.failed(null, notification.channel() + " is no longer configured"))
        : channel.send(notification);
    return sent.compose(outcome -> {
      Duration retryIn = outcome.delivered() ? null : retryAfter(notification.attempt());
      if (!outcome.delivered()) {
        LOG.warn("Alert {} {} by {}: attempt {} failed ({}){}", notification.incidentId(), notification.transition(),
            notification.channel(), notification.attempt(), outcome.error(),
            retryIn == null ? "; giving up" : "; retrying in " + retryIn.toMillis() + " ms");
      }
      return deliveries.record(notification, outcome, retryIn);
    });
  }

  /** The wait before the next attempt after {@code attempt} failed; null when no attempt is left. */
  Duration retryAfter(int attempt) {
    if (attempt >= policy.maxAttempts()) {
      return null;
    }
    return backoff(policy.initialBackoff(), policy.maxBackoff(), attempt);
  }

  static Duration backoff(Duration initial, Duration max, int attempt) {
    int doublings = Math.min(attempt - 1, 30);
    Duration wait = initial.multipliedBy(1L << doublings);
    return wait.compareTo(max) > 0 ? max : wait;
  }

  List<String> channelNames() {
    return List.copyOf(channels.keySet());
  }
}
