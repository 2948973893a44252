package io.gpurental.gateway.fleet;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.agent.runtime.Commands;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole way, for real: the operator enrols this machine as a host (the real agent, process
 * runtime, so the host is rented whole), a renter reserves and pays in the sandbox, logs in with
 * real {@code ssh} and sees the host's GPUs; cancelling removes the login and the Unix user. An agent restart and
 * a gateway restart in the middle of the instance neither lose nor duplicate it. Needs root and
 * Debian's openssh-server/openssh-client (as {@code .ci/run} installs).
 */
class FleetEndToEndTest {
  private static final JsonObject PRICE = new JsonObject().put("price_per_gpu_hour",
      new JsonObject().put("amount", 250).put("currency", "usd"));

  @TempDir
  Path stateDir;
  @TempDir
  Path renterDir;
  Map<String, String> settings;
  TestGateway node;
  ProcessAgentHost host;
  String hostId;

  @BeforeEach
  void start() {
    settings = TestGateway.settings();
    settings.put("GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS", "200");
    node = TestGateway.start(settings);
    host = new ProcessAgentHost(node.url(""), stateDir);
  }

  @AfterEach
  void stop() throws IOException {
    try {
      host.close();
    } finally {
      if (node != null) {
        node.close();
      }
    }
  }

  @Test
  void aPaidReservationOfTheWholeHostBecomesARealSshLoginAndCancelRemovesIt() {
    String offerId = enrolAndActivate();
    ApiClient renter = ApiClient.signIn(node, "erin");
    SshLogin.KeyPair key = SshLogin.newKeyPair(renterDir);
    JsonObject reserved = reserveByCheckout(renter, offerId, key);
    String id = reserved.getString("id");

    long paying = System.nanoTime();
    renter.payByCheckout(reserved, "4242424242424242");
    JsonObject running = renter.awaitStatus(id, "running");
    long paidToRunningMs = (System.nanoTime() - paying) / 1_000_000;
    System.out.printf("process runtime: card paid -> running seen in %d ms (confirmed -> running recorded: %d ms)%n",
        paidToRunningMs, recordedMs(running, "confirmed", "running"));

    JsonObject ssh = running.getJsonObject("ssh");
    host.track(ssh.getString("user"));
    SshLogin login = SshLogin.of(ssh, key, renterDir);
    assertEquals(ssh.getString("host_key_fingerprint"), login.fingerprintAsSshKeygenPrintsIt());
    Commands.Result echo = login.run("echo $CUDA_VISIBLE_DEVICES");
    assertEquals(0, echo.exit(), echo.summary());
    assertEquals(String.join(",", ProcessAgentHost.GPU_UUIDS), echo.out().strip(), "the whole host's GPUs");

    long refundShown = running.getJsonObject("cancellation").getJsonObject("refund").getLong("amount");
    HttpResponse<String> cancelled = renter.post("/api/v1/reservations/" + id + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    eventually("the login is refused", () -> login.run("true").exit() != 0);
    eventually("the Unix user is gone", () -> ProcessAgentHost.run("getent", "passwd", login.user()).exit() == 2);
    assertTrue(Files.notExists(Path.of("/home", login.user())), "and its home");
    JsonObject refund = renter.json("/api/v1/reservations/" + id).getJsonObject("payment").getJsonArray("refunds")
        .getJsonObject(0);
    assertEquals("succeeded", refund.getString("status"));
    assertTrue(refundShown > 0);
    assertEquals(refundShown, refund.getJsonObject("amount").getLong("amount"), "the refund shown before cancelling");
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void anAgentRestartAndAGatewayRestartAdoptTheRunningInstanceWithoutDuplicatingIt() throws IOException {
    String offerId = enrolAndActivate();
    ApiClient renter = ApiClient.signIn(node, "frank");
    SshLogin.KeyPair key = SshLogin.newKeyPair(renterDir);
    JsonObject reserved = reserveByCheckout(renter, offerId, key);
    String id = reserved.getString("id");
    renter.payByCheckout(reserved, "4242424242424242");
    JsonObject ssh = renter.awaitStatus(id, "running").getJsonObject("ssh");
    host.track(ssh.getString("user"));
    SshLogin login = SshLogin.of(ssh, key, renterDir);
    assertEquals(0, login.run("true").exit());
    long sshdPid = host.sshdPid(id);

    host.stop();
    Instant agentRestart = lastReport(id);
    host.start(null);
    eventually("the new agent re-reported the instance", () -> lastReport(id).isAfter(agentRestart));
    assertAdoptedAsItWas(renter, id, login, sshdPid, ssh);

    node.close();
    node = null;
    Instant gatewayRestart = Instant.now();
    node = TestGateway.start(settings);
    renter = renter.on(node);
    eventually("the agent reported to the restarted gateway", () -> lastReport(id).isAfter(gatewayRestart));
    eventually("its heartbeats reach the restarted gateway", () -> lastHeartbeat().isAfter(gatewayRestart));
    assertAdoptedAsItWas(renter, id, login, sshdPid, ssh);

    HttpResponse<String> cancelled = renter.post("/api/v1/reservations/" + id + "/cancel", null);
    assertEquals(200, cancelled.statusCode(), cancelled.body());
    eventually("the login is refused", () -> login.run("true").exit() != 0);
    eventually("the Unix user is gone", () -> ProcessAgentHost.run("getent", "passwd", login.user()).exit() == 2);
    eventually("the instance's files are gone", () -> instanceIds().isEmpty());
    assertTrue(ProcessHandle.of(sshdPid).isEmpty(), "its sshd is stopped");
  }

  /** The same instance as before the restart: one sshd, one user, one start recorded, still running. */
  private void assertAdoptedAsItWas(ApiClient renter, String id, SshLogin login, long sshdPid, JsonObject ssh)
      throws IOException {
    JsonObject reservation = renter.json("/api/v1/reservations/" + id);
    assertEquals("running", reservation.getString("status"));
    assertEquals(ssh, reservation.getJsonObject("ssh"), "same port, user and host key");
    assertEquals(List.of("pending_payment", "confirmed", "provisioning", "running"), reservation.getJsonArray("events")
        .stream().map(e -> ((JsonObject) e).getString("to")).toList(), "started once");
    assertEquals(sshdPid, host.sshdPid(id), "the same sshd");
    assertTrue(ProcessHandle.of(sshdPid).map(ProcessHandle::isAlive).orElse(false));
    assertEquals(List.of(id), host.instanceIds(), "no second instance");
    assertEquals("running", node.sql("SELECT state FROM instances WHERE reservation_id = '" + id + "'")
        .iterator().next().getString(0));
    assertEquals(1, ProcessAgentHost.run("getent", "passwd").out().lines()
        .filter(line -> line.contains("gpu instance " + id)).count(), "one Unix user for it");
    assertEquals(0, login.run("true").exit(), "the renter's login still works");
  }

  /** Operator: a site, a host on this machine, its agent enrolled, activated. Answers the offer. */
  private String enrolAndActivate() {
    ApiClient operator = ApiClient.signIn(node, "operator");
    HttpResponse<String> site = operator.post("/api/v1/operator/sites", new JsonObject()
        .put("name", "This machine").put("region", "test-local").put("country", "DE"));
    assertEquals(201, site.statusCode(), site.body());
    HttpResponse<String> created = operator.post("/api/v1/operator/hosts", new JsonObject().put("name", "localhost-gpu")
        .put("site_id", new JsonObject(site.body()).getString("id")).put("public_address", "127.0.0.1"));
    assertEquals(201, created.statusCode(), created.body());
    JsonObject enrolling = new JsonObject(created.body());
    host.start(enrolling.getString("enrollment_token"));
    hostId = enrolling.getString("id");
    eventually("the host is pending", () -> operator.json("/api/v1/operator/hosts/" + hostId),
        h -> "pending".equals(h.getString("status")) && h.getJsonArray("gpus").size() == 2);
    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + hostId + "/activate", PRICE);
    assertEquals(200, activated.statusCode(), activated.body());
    String offerId = new JsonObject(activated.body()).getJsonArray("offers").getString(0);
    String offer = node.get("/api/v1/offers/" + offerId).body();
    assertTrue(offer.contains("\"isolation\":\"whole_host\""), "a process-runtime host is rented whole: " + offer);
    return offerId;
  }

  /** The host's two GPUs (a process-runtime host is rented whole), from now for 2 h, paid by Checkout. */
  private static JsonObject reserveByCheckout(ApiClient renter, String offerId, SshLogin.KeyPair key) {
    JsonObject request = ApiClient.reservationRequest(offerId, 2, null, 2, "checkout")
        .put("ssh_public_key", key.publicKey());
    HttpResponse<String> created = renter.post("/api/v1/reservations", request);
    assertEquals(201, created.statusCode(), created.body());
    JsonObject reserved = new JsonObject(created.body());
    assertEquals("pending_payment", reserved.getString("status"));
    return reserved;
  }

  private Instant lastReport(String id) {
    return node.sql("SELECT reported_at FROM instances WHERE reservation_id = '" + id + "'").iterator().next()
        .getOffsetDateTime(0).toInstant();
  }

  private Instant lastHeartbeat() {
    // this host's: the demo fleet's agents heartbeat too
    return node.sql("SELECT last_at FROM host_heartbeats WHERE host_id = '" + hostId + "'").iterator().next()
        .getOffsetDateTime(0).toInstant();
  }

  private List<String> instanceIds() {
    try {
      return host.instanceIds();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static long recordedMs(JsonObject reservation, String from, String to) {
    return Duration.between(eventAt(reservation, from), eventAt(reservation, to)).toMillis();
  }

  private static Instant eventAt(JsonObject reservation, String status) {
    return reservation.getJsonArray("events").stream().map(e -> (JsonObject) e)
        .filter(e -> status.equals(e.getString("to"))).map(e -> Instant.parse(e.getString("at"))).findFirst()
        .orElseThrow();
  }
}
