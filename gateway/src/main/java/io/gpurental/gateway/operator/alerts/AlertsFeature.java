package io.gpurental.gateway.operator.alerts;

import io.gpurental.gateway.config.AlertsConfig;
import io.gpurental.gateway.payments.PaymentsFeature;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.platform.jobs.ClusterJobs;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Alerts: rules over the views other features publish open and resolve incidents (a
 * cluster-singleton job; SQL de-duplicates), each transition is sent once per configured channel
 * (signed webhook, e-mail) by a second job that retries with backoff, and operators list them.
 */
public final class AlertsFeature implements Feature {
  public static final String EVALUATE = "operator.alerts.evaluate";
  public static final String DELIVER = "operator.alerts.deliver";
  private final AlertsConfig config;
  private final Pool pool;
  private final RuleEvaluator evaluator;
  private final Deliverer deliverer;
  private final IncidentsApi api;
  private final Map<String, Channel> channels;

  /** {@code readyDeadline}: the ready guarantee's deadline, which ready_deadline_missed alerts on. */
  public AlertsFeature(Vertx vertx, Pool pool, AlertsConfig config, Duration readyDeadline) {
    this.config = config;
    this.pool = pool;
    this.channels = channels(vertx, config);
    this.evaluator = new RuleEvaluator(new IncidentRepository(pool), AlertRules.enabled(config, readyDeadline),
        List.copyOf(channels.keySet()));
    this.deliverer = new Deliverer(new DeliveryRepository(pool), channels, config.delivery());
    this.api = new IncidentsApi(new IncidentListRepository(pool));
  }

  private static Map<String, Channel> channels(Vertx vertx, AlertsConfig config) {
    Map<String, Channel> channels = new LinkedHashMap<>();
    config.webhook().ifPresent(w -> channels.put(Channel.WEBHOOK,
        new WebhookChannel(vertx, w, config.delivery().timeout())));
    config.email().ifPresent(e -> channels.put(Channel.EMAIL,
        new EmailChannel(vertx, e, config.delivery().timeout())));
    return channels;
  }

  /** The rule evaluation and the delivery of notifications, each on one node of the cluster at a time. */
  public void scheduleJobs(ClusterJobs jobs) {
    jobs.recordOutcomesIn(pool, PaymentsFeature.RECONCILE); // what reconciliation_failing reads
    jobs.schedule(EVALUATE, config.evaluateInterval(), evaluator::evaluate);
    jobs.schedule(DELIVER, config.delivery().interval(), deliverer::deliverDue);
  }

  @Override
  public void bind(RouterBuilder router) {
    api.bind(router);
  }

  @Override
  public Future<Void> close() {
    return Future.join(channels.values().stream().map(Channel::close).toList()).mapEmpty();
  }
}
