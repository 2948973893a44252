package io.gpurental.gateway.operator.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.payments.PaymentsFeature;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The rules over the views they read, evaluated directly (the scheduled job is slowed to an hour
 * so only the test evaluates): de-duplication without the job's lock, resolution when the
 * condition clears, the guarded rules, and the operator-only list.
 */
@GatewayTest(settings = {"GATEWAY_ALERTS_EVALUATE_INTERVAL_MS=3600000", "GATEWAY_ALERTS_RECONCILIATION_FAILURES=3"})
class AlertRulesTest {
  private static final AtomicInteger REFS = new AtomicInteger();

  @Test
  void aDuplicateConditionNeverOpensASecondIncidentEvenWhenEvaluationsRace(TestGateway node) {
    String ref = "alerts-test-" + REFS.incrementAndGet();
    node.sql("INSERT INTO ledger_transactions (kind, ref) VALUES ('test', '" + ref + "')");
    String target = "unbalanced_transaction:test:" + ref;

    // eight evaluations at once, without the cluster lock: only the partial unique index decides
    List<Future<Void>> racing = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      racing.add(evaluator(node, List.of("webhook")).evaluate());
    }
    TestGateway.await(Future.all(racing));
    TestGateway.await(evaluator(node, List.of("webhook")).evaluate());

    assertEquals(1, count(node, "SELECT count(*) FROM alert_incidents WHERE target = '" + target + "'"));
    assertEquals(1, count(node, "SELECT count(*) FROM alert_deliveries d JOIN alert_incidents i ON i.id = d.incident_id"
        + " WHERE i.target = '" + target + "'"), "one notification for the one transition");
    assertThrows(RuntimeException.class, () -> node.sql("INSERT INTO alert_incidents (id, rule, target, status)"
        + " VALUES ('inc_dup', 'ledger_problem', '" + target + "', 'open')"), "the database refuses a second open one");

    node.sql("DELETE FROM ledger_transactions WHERE ref = '" + ref + "'");
    TestGateway.await(evaluator(node, List.of("webhook")).evaluate());
    Row incident = node.sql("SELECT status, resolved_at FROM alert_incidents WHERE target = '" + target + "'")
        .iterator().next();
    assertEquals("resolved", incident.getString("status"));
    assertEquals(2, count(node, "SELECT count(*) FROM alert_deliveries d JOIN alert_incidents i ON i.id = d.incident_id"
        + " WHERE i.target = '" + target + "'"), "one more for resolving");
  }

  @Test
  void gpuHealthIsWatchedOnceTheFleetPublishesItsHealthColumn(TestGateway node) {
    String gpu = node.sql("SELECT id FROM gpus ORDER BY id LIMIT 1").iterator().next().getString(0);
    TestGateway.await(evaluator(node, List.of()).evaluate()); // no health column yet: inactive, no error
    assertEquals(0, count(node, "SELECT count(*) FROM alert_incidents WHERE rule = 'gpu_unhealthy'"));

    // what Fleet II's V11 publishes: a health column on fleet_gpus_view
    node.sql("CREATE OR REPLACE VIEW fleet_gpus_view AS SELECT id, host_id, idx, model, vram_gb,"
        + " CASE WHEN id = '" + gpu + "' THEN 'faulty' ELSE 'healthy' END AS health FROM gpus");
    try {
      TestGateway.await(evaluator(node, List.of()).evaluate());
      Row incident = node.sql("SELECT target, details->>'health' AS health FROM alert_incidents"
          + " WHERE rule = 'gpu_unhealthy' AND status = 'open'").iterator().next();
      assertEquals(gpu, incident.getString("target"));
      assertEquals("faulty", incident.getString("health"));
    } finally {
      node.sql("CREATE OR REPLACE VIEW fleet_gpus_view AS SELECT id, host_id, idx, model, vram_gb,"
          + " 'healthy'::text AS health FROM gpus");
    }
    TestGateway.await(evaluator(node, List.of()).evaluate());
    assertEquals(0, count(node, "SELECT count(*) FROM alert_incidents WHERE rule = 'gpu_unhealthy' AND status = 'open'"));
  }

  @Test
  void theReconcilerFailingThreeRunsInARowOpensAnIncidentAndItsNextSuccessResolvesIt(TestGateway node) {
    // the outcomes are recorded by the cluster job machinery itself
    AtomicBoolean failing = new AtomicBoolean(true);
    node.gateway().jobs().recordOutcomesIn(node.gateway().pool(), "test.flaky");
    node.gateway().jobs().schedule("test.flaky", Duration.ofHours(1),
        () -> failing.get() ? Future.failedFuture("boom") : Future.succeededFuture());
    for (int i = 0; i < 3; i++) {
      assertThrows(RuntimeException.class, () -> TestGateway.await(node.gateway().jobs().runNow("test.flaky")));
    }
    Row run = node.sql("SELECT consecutive_failures, last_error FROM cluster_job_runs WHERE job = 'test.flaky'")
        .iterator().next();
    assertEquals(3, run.getInteger(0));
    assertEquals("boom", run.getString(1));
    failing.set(false);
    TestGateway.await(node.gateway().jobs().runNow("test.flaky"));
    assertEquals(0, count(node, "SELECT consecutive_failures FROM cluster_job_runs WHERE job = 'test.flaky'"
        + " AND last_ok_at IS NOT NULL"), "a success ends the run of failures");

    String job = PaymentsFeature.RECONCILE;
    node.sql("INSERT INTO cluster_job_runs (job, last_run_at, last_failed_at, last_error, consecutive_failures)"
        + " VALUES ('" + job + "', now(), now(), 'Stripe unreachable', 2)"
        + " ON CONFLICT (job) DO UPDATE SET consecutive_failures = 2, last_error = 'Stripe unreachable'");
    TestGateway.await(evaluator(node, List.of()).evaluate());
    assertEquals(0, openFor(node, "reconciliation_failing"), "two failures may be a blip");
    node.sql("UPDATE cluster_job_runs SET consecutive_failures = 3 WHERE job = '" + job + "'");
    TestGateway.await(evaluator(node, List.of()).evaluate());
    assertEquals(1, openFor(node, "reconciliation_failing"));
    node.sql("UPDATE cluster_job_runs SET consecutive_failures = 0, last_ok_at = now() WHERE job = '" + job + "'");
    TestGateway.await(evaluator(node, List.of()).evaluate());
    assertEquals(0, openFor(node, "reconciliation_failing"));
  }

  @Test
  void aFailureReportedByTheHostAndAFailedRefundOpenIncidentsThatResolveWhenTheyClear(TestGateway node) {
    String id = "rsv_alerts" + REFS.incrementAndGet();
    String host = node.sql("SELECT host_id FROM offers ORDER BY id LIMIT 1").iterator().next().getString(0);
    node.sql("INSERT INTO accounts (id, display_name) VALUES ('acc_alerts_test', 'Alerts test') ON CONFLICT DO NOTHING");
    node.sql("INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count, period, status, quote_id, price,"
        + " total_amount, currency, ssh_public_key, ssh_fingerprint, payment_method)"
        + " SELECT '" + id + "', 'acc_alerts_test', o.id, o.host_id, 1, tstzrange(now(), now() + interval '1 hour'),"
        + " 'failed', 'quo_test', '{}', 1000, 'usd', 'ssh-ed25519 AAAA test', 'SHA256:test', 'checkout'"
        + " FROM offers o WHERE o.host_id = '" + host + "' LIMIT 1");
    // what reservations.HostFailures records when the agent reports the instance failed
    node.sql("INSERT INTO reservation_events (reservation_id, from_status, to_status, cause) VALUES ('" + id
        + "', 'provisioning', 'failed', 'host failure: runtime_error; 1 h not delivered, credited $10.00')");
    node.sql("INSERT INTO payments (id, reservation_id, account_id, kind, amount, currency, status) VALUES ('pay_"
        + id + "', '" + id + "', 'acc_alerts_test', 'charge', 1000, 'usd', 'pending')");
    node.sql("INSERT INTO refunds (id, payment_id, amount, currency, reason, status, failure_message) VALUES ('rfd_"
        + id + "', 'pay_" + id + "', 1000, 'usd', 'downtime_credit', 'failed', 'card expired')");

    TestGateway.await(evaluator(node, List.of()).evaluate());
    Row provisioning = node.sql("SELECT details->>'host_id', details->>'cause' FROM alert_incidents"
        + " WHERE rule = 'provisioning_failed' AND target = '" + id + "' AND status = 'open'").iterator().next();
    assertEquals(host, provisioning.getString(0));
    assertTrue(provisioning.getString(1).startsWith("host failure: runtime_error"), provisioning.getString(1));
    assertEquals("card expired", node.sql("SELECT details->>'failure_message' FROM alert_incidents"
        + " WHERE rule = 'refund_failed' AND target = 'rfd_" + id + "' AND status = 'open'").iterator().next().getString(0));

    node.sql("UPDATE reservation_events SET at = now() - interval '25 hours' WHERE reservation_id = '" + id + "'");
    node.sql("DELETE FROM refunds WHERE id = 'rfd_" + id + "'");
    TestGateway.await(evaluator(node, List.of()).evaluate());
    assertEquals(0, count(node, "SELECT count(*) FROM alert_incidents WHERE target IN ('" + id + "', 'rfd_" + id
        + "') AND status = 'open'"), "older than alerts.recent_failure_hours, and the refund is no longer failed");
    assertEquals(2, count(node, "SELECT count(*) FROM alert_incidents WHERE target IN ('" + id + "', 'rfd_" + id
        + "') AND status = 'resolved'"));
  }

  @Test
  void aReservationNotRunningByTheReadyDeadlineOpensAnIncidentThatStaysWhileItRanLateRecently(TestGateway node) {
    long deadlineMinutes = node.gateway().config().fleet().readyDeadline().toMinutes();
    String late = provisioning(node, deadlineMinutes - 1);
    String onTime = provisioning(node, deadlineMinutes - 1);
    TestGateway.await(evaluator(node, List.of()).evaluate());
    assertEquals(0, openFor(node, "ready_deadline_missed"), "both are still within the deadline");

    node.sql("UPDATE reservations SET due_at = now() - interval '" + (deadlineMinutes + 1) + " minutes' WHERE id = '"
        + late + "'");
    // the other ran 2 minutes after it was due, an hour ago: recent, but in time
    node.sql("UPDATE reservations SET due_at = now() - interval '62 minutes', status = 'running' WHERE id = '"
        + onTime + "'");
    node.sql("INSERT INTO reservation_events (reservation_id, at, from_status, to_status, cause) VALUES ('" + onTime
        + "', now() - interval '60 minutes', 'provisioning', 'running', 'instance running')");
    TestGateway.await(evaluator(node, List.of()).evaluate());
    Row incident = node.sql("SELECT target, details->>'host_id', details->>'running_at' FROM alert_incidents"
        + " WHERE rule = 'ready_deadline_missed' AND status = 'open'").iterator().next();
    assertEquals(late, incident.getString(0));
    assertEquals(null, incident.getString(2), "not running yet");
    assertEquals(1, openFor(node, "ready_deadline_missed"), "the one that ran within the deadline is not an incident");

    // it runs, late: still a miss the operator should see, for the recent window
    node.sql("UPDATE reservations SET status = 'running' WHERE id = '" + late + "'");
    node.sql("INSERT INTO reservation_events (reservation_id, from_status, to_status, cause) VALUES ('" + late
        + "', 'provisioning', 'running', 'instance running')");
    TestGateway.await(evaluator(node, List.of()).evaluate());
    assertEquals(1, openFor(node, "ready_deadline_missed"));

    node.sql("UPDATE reservation_events SET at = now() - interval '25 hours' WHERE reservation_id = '" + late + "'");
    node.sql("UPDATE reservations SET due_at = now() - interval '26 hours' WHERE id = '" + late + "'");
    TestGateway.await(evaluator(node, List.of()).evaluate());
    assertEquals(0, openFor(node, "ready_deadline_missed"), "older than alerts.recent_failure_hours");
    assertEquals(1, count(node, "SELECT count(*) FROM alert_incidents WHERE rule = 'ready_deadline_missed'"
        + " AND target = '" + late + "' AND status = 'resolved'"));
  }

  /** A provisioning reservation on a demo host, due {@code dueMinutesAgo} minutes ago. */
  private static String provisioning(TestGateway node, long dueMinutesAgo) {
    String id = "rsv_ready" + REFS.incrementAndGet();
    node.sql("INSERT INTO accounts (id, display_name) VALUES ('acc_alerts_test', 'Alerts test') ON CONFLICT DO NOTHING");
    node.sql("INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count, period, status, quote_id, price,"
        + " total_amount, currency, ssh_public_key, ssh_fingerprint, payment_method, due_at)"
        + " SELECT '" + id + "', 'acc_alerts_test', o.id, o.host_id, 1, tstzrange(now() - interval '1 hour',"
        + " now() + interval '2 hours'), 'provisioning', 'quo_test', '{}', 1000, 'usd', 'ssh-ed25519 AAAA test',"
        + " 'SHA256:test', 'checkout', now() - interval '" + dueMinutesAgo + " minutes' FROM offers o ORDER BY o.id LIMIT 1");
    return id;
  }

  @Test
  void everyRuleWhoseViewIsThereRunsItsQuery(TestGateway node) {
    IncidentRepository incidents = new IncidentRepository(node.gateway().pool());
    for (Rule rule : AlertRules.all(node.gateway().config().alerts(), node.gateway().config().fleet().readyDeadline())) {
      if (TestGateway.await(incidents.available(rule))) {
        TestGateway.await(incidents.conditions(rule)); // fails the test on an SQL error
      }
    }
  }

  @Test
  void onlyOperatorsListIncidents(TestGateway node, @SignedIn("alerts-renter") ApiClient renter) {
    assertEquals(403, renter.get("/api/v1/operator/incidents").statusCode());
    ApiClient operator = ApiClient.signIn(node, "operator");
    assertEquals(200, operator.get("/api/v1/operator/incidents?status=open").statusCode());
    assertEquals(400, operator.get("/api/v1/operator/incidents?status=closed").statusCode());
    assertEquals(400, operator.get("/api/v1/operator/incidents?cursor=bm9wZQ").statusCode());
    assertTrue(operator.json("/api/v1/operator/incidents").containsKey("next_cursor"));
  }

  private static RuleEvaluator evaluator(TestGateway node, List<String> channels) {
    return new RuleEvaluator(new IncidentRepository(node.gateway().pool()),
        AlertRules.enabled(node.gateway().config().alerts(), node.gateway().config().fleet().readyDeadline()), channels);
  }

  private static long count(TestGateway node, String sql) {
    return node.sql(sql).iterator().next().getLong(0);
  }

  private static long openFor(TestGateway node, String rule) {
    return count(node, "SELECT count(*) FROM alert_incidents WHERE rule = '" + rule + "' AND status = 'open'");
  }
}
