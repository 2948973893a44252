package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.SignedIn;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * An operator's token acts for the operator only with the {@code operator} scope: with renter
 * scopes alone it sees and cancels only its own account's reservations, like any renter's. An
 * operator's cancellation of someone else's reservation is in the audit log.
 */
@GatewayTest
class OperatorTokenScopesTest {
  private static final Instant START = Instant.now().plus(4, ChronoUnit.DAYS).truncatedTo(ChronoUnit.HOURS);

  @Test
  void aRenterScopedOperatorTokenCannotReadCancelOrListOtherRentersReservations(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("frank") ApiClient frank) {
    ApiClient narrow = ApiClient.signIn(node, "operator", new JsonArray().add("reservations:write"));
    String id = frank.reserve("off_osl_5090_01", 1, START, 2, "checkout").getString("id");

    assertEquals(404, narrow.get("/api/v1/reservations/" + id).statusCode());
    assertEquals(404, narrow.post("/api/v1/reservations/" + id + "/cancel", new JsonObject()).statusCode());
    JsonArray listed = new JsonObject(narrow.get("/api/v1/reservations").body()).getJsonArray("data");
    assertFalse(listed.stream().map(r -> ((JsonObject) r).getString("id")).anyMatch(id::equals),
        "another renter's reservation is not listed");
    assertEquals("pending_payment", frank.json("/api/v1/reservations/" + id).getString("status"));

    assertEquals(200, operator.get("/api/v1/reservations/" + id).statusCode(), "the operator scope still sees it");
  }

  @Test
  void anOperatorsCancellationOfAnotherAccountsReservationIsAudited(TestGateway node,
      @SignedIn("operator") ApiClient operator, @SignedIn("grace") ApiClient grace) {
    String id = grace.reserve("off_osl_5090_01", 1, START.plus(6, ChronoUnit.HOURS), 2, "checkout").getString("id");
    var cancelled = operator.post("/api/v1/reservations/" + id + "/cancel", new JsonObject());
    assertEquals(200, cancelled.statusCode(), cancelled.body());

    Row audit = node.sql("SELECT actor, before, after FROM audit_log WHERE action = 'reservation.cancel'"
        + " AND target = '" + id + "'").iterator().next();
    assertTrue(audit.getString("actor").startsWith("acc_"), audit.getString("actor"));
    assertEquals("pending_payment", audit.getJsonObject("before").getString("status"));
    assertEquals("cancelled", audit.getJsonObject("after").getString("status"));
  }
}
