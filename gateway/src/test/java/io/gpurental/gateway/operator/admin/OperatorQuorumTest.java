package io.gpurental.gateway.operator.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gpurental.gateway.testing.Eventually;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The operators can never lock themselves out: two operators suspending each other at once end
 * with exactly one suspended. Both requests are held inside their transactions (the audit log is
 * locked against inserts) until both are in, so the race happens every time.
 */
@GatewayTest
class OperatorQuorumTest {
  private static final String WAITING = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
      + " AND datname = current_database()";

  @Test
  void twoOperatorsSuspendingEachOtherAtOnceLeaveOneActive(TestGateway node) {
    WebSession boss = signedIn(node, "operator");
    WebSession olga = signedIn(node, "olga");
    String bossId = boss.me(node).getString("id");
    String olgaId = olga.me(node).getString("id");
    assertEquals(200, boss.write("PUT", node.url("/api/v1/operator/accounts/" + olgaId + "/roles/operator"), null)
        .statusCode());

    SqlConnection holder = TestGateway.await(node.gateway().pool().getConnection());
    Transaction held = TestGateway.await(holder.begin());
    TestGateway.await(holder.query("LOCK TABLE audit_log IN SHARE MODE").execute());
    CompletableFuture<HttpResponse<String>> bossSuspendsOlga = CompletableFuture.supplyAsync(() -> suspend(boss, node,
        olgaId));
    CompletableFuture<HttpResponse<String>> olgaSuspendsBoss = CompletableFuture.supplyAsync(() -> suspend(olga, node,
        bossId));
    try {
      Eventually.eventually("both suspensions wait inside their transactions",
          () -> node.sql(WAITING).iterator().next().getLong(0) >= 2);
    } finally {
      TestGateway.await(held.rollback());
      TestGateway.await(holder.close());
    }
    List<Integer> statuses = List.of(bossSuspendsOlga.join().statusCode(), olgaSuspendsBoss.join().statusCode());

    long active = node.sql("SELECT count(*) FROM accounts a JOIN account_roles r ON r.account_id = a.id"
        + " AND r.role = 'operator' WHERE a.suspended_at IS NULL").iterator().next().getLong(0);
    assertEquals(1, active, "one operator is left active; answers " + statuses);
    assertEquals(List.of(200, 409), statuses.stream().sorted().toList());
  }

  private static HttpResponse<String> suspend(WebSession actor, TestGateway node, String id) {
    return actor.write("POST", node.url("/api/v1/operator/accounts/" + id + "/suspension"),
        new JsonObject().put("reason", "race"));
  }

  private static WebSession signedIn(TestGateway node, String login) {
    WebSession session = new WebSession();
    session.signIn(node, "github", login);
    return session;
  }
}
