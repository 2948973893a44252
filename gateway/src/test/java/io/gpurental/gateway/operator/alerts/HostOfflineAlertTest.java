package io.gpurental.gateway.operator.alerts;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FakeAgent;
import io.gpurental.gateway.testing.FreePorts;
import io.gpurental.gateway.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The alerts end to end, against a real webhook receiver (a Vert.x HTTP server that verifies the
 * signature) and a real SMTP server (GreenMail) started here: a host that stops heartbeating
 * opens one incident, notified once per channel; its heartbeats resolve it, notified once more.
 */
class HostOfflineAlertTest {
  private static final String SECRET = "whsec_alerts_test_" + UUID.randomUUID();
  private static WebhookReceiver receiver;
  private static GreenMail smtp;
  private static TestGateway node;
  private static ApiClient operator;

  @BeforeAll
  static void start() {
    receiver = new WebhookReceiver(SECRET);
    smtp = new GreenMail(new ServerSetup(FreePorts.next(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    smtp.start();
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_FLEET_HEARTBEAT_INTERVAL_SECONDS", "1");
    settings.put("GATEWAY_FLEET_OFFLINE_AFTER_MISSED", "2");
    settings.put("GATEWAY_ALERTS_EVALUATE_INTERVAL_MS", "500");
    settings.put("GATEWAY_ALERTS_DELIVERY_INTERVAL_MS", "200");
    settings.put("GATEWAY_ALERTS_DELIVERY_INITIAL_BACKOFF_MS", "300");
    settings.put("GATEWAY_ALERTS_DELIVERY_MAX_BACKOFF_MS", "1000");
    settings.put("GATEWAY_ALERTS_WEBHOOK_URL", receiver.url());
    settings.put("GATEWAY_ALERTS_WEBHOOK_SECRET", SECRET);
    settings.put("GATEWAY_ALERTS_EMAIL_TO", "ops@example.test");
    settings.put("GATEWAY_ALERTS_EMAIL_FROM", "gateway@example.test");
    settings.put("GATEWAY_ALERTS_EMAIL_SMTP_HOST", "127.0.0.1");
    settings.put("GATEWAY_ALERTS_EMAIL_SMTP_PORT", Integer.toString(smtp.getSmtp().getPort()));
    settings.put("GATEWAY_ALERTS_EMAIL_STARTTLS", "disabled");
    node = TestGateway.start(settings);
    operator = ApiClient.signIn(node, "operator");
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
    smtp.stop();
    receiver.close();
  }

  @Test
  void aSilentHostOpensOneIncidentNotifiedOnceAndItsHeartbeatsResolveIt() {
    FakeAgent agent = activeHost();
    String hostId = agent.hostId();

    JsonObject incident = eventually("an open incident for the silent host", () -> incidents("open", hostId),
        list -> list.size() == 1).getJsonObject(0);
    String id = incident.getString("id");
    assertEquals("host_offline", incident.getString("rule"));
    assertEquals(hostId, incident.getJsonObject("details").getString("host_id"));

    JsonObject opened = eventually("the signed webhook", () -> receiver.about(id), list -> !list.isEmpty()).get(0);
    assertEquals("opened", opened.getString("status"));
    assertEquals("host_offline", opened.getString("rule"));
    assertEquals(hostId, opened.getString("target"));
    assertEquals(incident.getString("opened_at"), opened.getString("at"));
    eventually("the e-mail", () -> mailsAbout(id), list -> list.size() == 1);
    assertTrue(mailsAbout(id).get(0).startsWith("[gateway alert] opened: host_offline " + hostId), mailsAbout(id).toString());

    // the condition holds through many more evaluations, and still: one incident, one of each notification
    Instant notified = Instant.parse(opened.getString("at"));
    eventually("evaluated again after the notification", () -> Instant.parse(incident(id).getString("last_seen_at")),
        later -> later.isAfter(notified.plusMillis(500)));
    eventually("both channels delivered", () -> deliveries(id, "opened"), d -> d.stream()
        .allMatch(o -> "delivered".equals(((JsonObject) o).getString("status"))) && d.size() == 2);
    assertEquals(1, incidentsFor(hostId).size());
    assertEquals(1, receiver.about(id).size());
    assertEquals(1, mailsAbout(id).size());
    assertEquals(0, receiver.rejected(), "every request was signed right");

    assertEquals(200, agent.heartbeat().statusCode());
    JsonObject resolved = eventually("resolved once heartbeats resume", () -> incident(id),
        i -> "resolved".equals(i.getString("status")));
    List<JsonObject> webhooks = eventually("the resolved webhook", () -> receiver.about(id), list -> list.size() == 2);
    assertEquals("resolved", webhooks.get(1).getString("status"));
    assertEquals(resolved.getString("resolved_at"), webhooks.get(1).getString("at"));
    eventually("the resolved e-mail", () -> mailsAbout(id), list -> list.size() == 2);
    assertTrue(mailsAbout(id).stream().anyMatch(s -> s.startsWith("[gateway alert] resolved: host_offline " + hostId)));
    eventually("the resolved notifications delivered", () -> deliveries(id, "resolved"), d -> d.size() == 2 && d.stream()
        .allMatch(o -> "delivered".equals(((JsonObject) o).getString("status"))));
    assertEquals(2, receiver.about(id).size(), "one opened, one resolved");
    assertEquals(2, mailsAbout(id).size(), "one opened, one resolved");
  }

  @Test
  void aWebhookAnswering500TwiceIsDeliveredOnTheThirdAttemptAndTheLogShowsEachAttempt() {
    FakeAgent agent = enrolledHost();
    receiver.flakyFor(agent.hostId());
    assertEquals(200, agent.heartbeat().statusCode());

    String id = eventually("an incident", () -> incidentsFor(agent.hostId()), list -> list.size() == 1)
        .getJsonObject(0).getString("id");
    // back at once, while the opened webhook is still being retried: the resolve waits its turn
    assertEquals(200, agent.heartbeat().statusCode());
    JsonObject webhook = eventually("delivered after retries", () -> webhookDelivery(id, "opened"),
        d -> d != null && "delivered".equals(d.getString("status")));
    assertEquals(3, webhook.getInteger("attempts"));
    JsonArray log = webhook.getJsonArray("log");
    assertEquals(List.of(500, 500, 204), log.stream().map(a -> ((JsonObject) a).getInteger("status_code")).toList());
    assertEquals("HTTP 500", log.getJsonObject(0).getString("error"));
    assertTrue(log.getJsonObject(0).getString("next_attempt_at") != null, "a failed attempt says when the next comes");
    for (int i = 1; i < 3; i++) {
      assertTrue(!Instant.parse(log.getJsonObject(i).getString("at"))
          .isBefore(Instant.parse(log.getJsonObject(i - 1).getString("next_attempt_at"))), "attempt " + (i + 1)
          + " waited for its backoff: " + log);
    }
    assertEquals(3, receiver.requestsFor(id + ".opened"));

    List<JsonObject> received = eventually("the resolve after it", () -> receiver.about(id), list -> list.size() == 2);
    assertEquals(List.of("opened", "resolved"), received.stream().map(n -> n.getString("status")).toList(),
        "in the order they happened");
    assertEquals(1, receiver.requestsFor(id + ".resolved"));
  }

  /** An enrolled, active host whose agent sent one heartbeat and then falls silent. */
  private static FakeAgent activeHost() {
    FakeAgent agent = enrolledHost();
    assertEquals(200, agent.heartbeat().statusCode());
    return agent;
  }

  private static FakeAgent enrolledHost() {
    FakeAgent agent = FakeAgent.enrol(node, FakeAgent.createHost(operator).getString("enrollment_token"),
        "NVIDIA H100 80GB HBM3", 2);
    HttpResponse<String> activated = operator.post("/api/v1/operator/hosts/" + agent.hostId() + "/activate",
        new JsonObject().put("price_per_gpu_hour", new JsonObject().put("amount", 250).put("currency", "usd")));
    assertEquals(200, activated.statusCode(), activated.body());
    return agent;
  }


  private static JsonArray incidents(String status, String target) {
    JsonArray all = operator.json("/api/v1/operator/incidents?limit=100" + (status == null ? "" : "&status=" + status))
        .getJsonArray("data");
    return new JsonArray(all.stream().filter(i -> target.equals(((JsonObject) i).getString("target"))).toList());
  }

  private static JsonObject incident(String id) {
    return operator.json("/api/v1/operator/incidents?limit=100").getJsonArray("data").stream()
        .map(JsonObject.class::cast).filter(i -> id.equals(i.getString("id"))).findFirst().orElseThrow();
  }

  private static JsonArray incidentsFor(String target) {
    return incidents(null, target);
  }

  private static JsonArray deliveries(String incidentId, String transition) {
    return new JsonArray(incident(incidentId).getJsonArray("deliveries").stream()
        .filter(d -> transition.equals(((JsonObject) d).getString("transition"))).toList());
  }

  private static JsonObject webhookDelivery(String incidentId, String transition) {
    return deliveries(incidentId, transition).stream().map(JsonObject.class::cast)
        .filter(d -> "webhook".equals(d.getString("channel"))).findFirst().orElse(null);
  }

  /** The subjects of the mails received about one incident (its id is in the body). */
  private static List<String> mailsAbout(String incidentId) {
    return Arrays.stream(smtp.getReceivedMessages()).filter(m -> body(m).contains(incidentId))
        .map(HostOfflineAlertTest::subject).toList();
  }

  private static String body(MimeMessage message) {
    try {
      return String.valueOf(message.getContent());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static String subject(MimeMessage message) {
    try {
      return message.getSubject();
    } catch (MessagingException e) {
      throw new AssertionError(e);
    }
  }
}
