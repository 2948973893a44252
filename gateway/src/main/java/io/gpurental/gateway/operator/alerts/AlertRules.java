package io.gpurental.gateway.operator.alerts;

import io.gpurental.gateway.config.AlertsConfig;
import io.gpurental.gateway.payments.PaymentsFeature;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The rules and their SQL. Each reads only views the watched feature publishes; the condition
 * holds for a target as long as its row is there, so the incident resolves when the row goes.
 */
final class AlertRules {
  static final String HOST_OFFLINE = "host_offline";
  static final String GPU_UNHEALTHY = "gpu_unhealthy";
  static final String PROVISIONING_FAILED = "provisioning_failed";
  static final String READY_DEADLINE_MISSED = "ready_deadline_missed";
  static final String REFUND_FAILED = "refund_failed";
  static final String LEDGER_PROBLEM = "ledger_problem";
  static final String RECONCILIATION_FAILING = "reconciliation_failing";

  private AlertRules() {}

  /**
   * The enabled rules, in the order they are evaluated; {@code readyDeadline} is the ready
   * guarantee's ({@code fleet.ready_deadline_minutes}), so the alert and the credit agree.
   */
  static List<Rule> enabled(AlertsConfig config, Duration readyDeadline) {
    return all(config, readyDeadline).stream().filter(rule -> config.enabled(rule.name())).toList();
  }

  static List<Rule> all(AlertsConfig config, Duration readyDeadline) {
    long recentSeconds = config.recentFailures().toSeconds();
    return List.of(hostOffline(), gpuUnhealthy(), provisioningFailed(recentSeconds),
        readyDeadlineMissed(recentSeconds, readyDeadline.toSeconds()),
        refundFailed(), ledgerProblem(), reconciliationFailing(config.reconciliationFailures()));
  }

  private static Rule hostOffline() {
    return always(HOST_OFFLINE, """
        SELECT id, jsonb_build_object('host_id', id, 'host_name', name, 'site', site_name)::text
        FROM fleet_hosts_view WHERE status = 'offline'""");
  }

  /** fleet_gpus_view gains its health column with Fleet II's GPU health (V11); inactive until then. */
  private static Rule gpuUnhealthy() {
    return new Rule(GPU_UNHEALTHY, """
        SELECT id, jsonb_build_object('gpu_id', id, 'host_id', host_id, 'index', idx, 'model', model,
                                      'health', health)::text
        FROM fleet_gpus_view WHERE health IN ('degraded', 'faulty')""",
        Optional.of(columnExists("fleet_gpus_view", "health")), List.of());
  }

  private static Rule provisioningFailed(long recentSeconds) {
    return new Rule(PROVISIONING_FAILED, """
        SELECT DISTINCT ON (reservation_id) reservation_id,
               jsonb_build_object('reservation_id', reservation_id, 'host_id', host_id, 'failed_at', failed_at,
                                  'cause', cause)::text
        FROM provisioning_failures_view WHERE failed_at > now() - $1::bigint * interval '1 second'
        ORDER BY reservation_id, failed_at DESC""", Optional.empty(), List.of(recentSeconds));
  }

  /**
   * Still provisioning past the deadline (open until it runs late or fails), or ran late within
   * the recent window. $1 the recent window, $2 the deadline, both in seconds.
   */
  private static Rule readyDeadlineMissed(long recentSeconds, long deadlineSeconds) {
    return new Rule(READY_DEADLINE_MISSED, """
        SELECT reservation_id, jsonb_build_object('reservation_id', reservation_id, 'host_id', host_id,
               'due_at', due_at, 'missed_at', missed_at, 'running_at', running_at)::text
        FROM (SELECT *, due_at + $2::bigint * interval '1 second' AS missed_at FROM reservation_readiness_view) r
        WHERE (status = 'provisioning' AND running_at IS NULL AND missed_at < now())
           OR (running_at > missed_at AND running_at > now() - $1::bigint * interval '1 second')""",
        Optional.empty(), List.of(recentSeconds, deadlineSeconds));
  }

  private static Rule refundFailed() {
    return always(REFUND_FAILED, """
        SELECT refund_id, jsonb_build_object('refund_id', refund_id, 'payment_id', payment_id,
               'reservation_id', reservation_id, 'amount', amount, 'currency', currency, 'reason', reason,
               'failure_message', failure_message)::text
        FROM failed_refunds_view""");
  }

  /** A refund not done is refund_failed's (or the reconciler's) business, not a ledger fault. */
  private static Rule ledgerProblem() {
    return always(LEDGER_PROBLEM, """
        SELECT DISTINCT problem || ':' || coalesce(ref, ''),
               jsonb_build_object('problem', problem, 'ref', ref, 'detail', detail)::text
        FROM ledger_problems_view WHERE problem <> 'refund_not_done'""");
  }

  private static Rule reconciliationFailing(int failuresInARow) {
    return new Rule(RECONCILIATION_FAILING, """
        SELECT job, jsonb_build_object('job', job, 'consecutive_failures', consecutive_failures,
               'last_error', last_error, 'last_failed_at', last_failed_at, 'last_ok_at', last_ok_at)::text
        FROM cluster_job_runs_view WHERE job = '%s' AND consecutive_failures >= $1"""
        .formatted(PaymentsFeature.RECONCILE), Optional.empty(), List.of(failuresInARow));
  }

  private static Rule always(String name, String sql) {
    return new Rule(name, sql, Optional.empty(), List.of());
  }

  private static String columnExists(String relation, String column) {
    return "SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()"
        + " AND table_name = '" + relation + "' AND column_name = '" + column + "')";
  }

}
