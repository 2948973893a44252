package io.gpurental.gateway.agents.approvals;

import static io.gpurental.gateway.testing.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import io.gpurental.gateway.testing.ApiClient;
import io.gpurental.gateway.testing.FreePorts;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import io.vertx.core.json.JsonObject;
import jakarta.mail.Message;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * E-mailed approval links end to end, against a real SMTP server (GreenMail): the owner of a
 * reservation an agent booked above its token's threshold (from the account's default budget) gets
 * a mail with a signed link; its page approves only by the signed-in owner's POST, once; the
 * reservation is then paid and runs. Altered, reused and other people's links are refused.
 */
class ApprovalMailTest {
  private static final String OFFER = "off_osl_4090_01";
  private static final Pattern LINK = Pattern.compile("(http\\S+/approvals/(rsv_[A-Za-z0-9]+)\\?expires=\\d+&sig=\\S+)");
  private static final Pattern CSRF = Pattern.compile("name=\"csrf_token\" value=\"([^\"]+)\"");
  private static GreenMail smtp;
  private static TestGateway node;

  @BeforeAll
  static void start() {
    smtp = new GreenMail(new ServerSetup(FreePorts.next(), "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
    smtp.start();
    Map<String, String> settings = TestGateway.settings();
    settings.put("GATEWAY_MAIL_SMTP_HOST", "127.0.0.1");
    settings.put("GATEWAY_MAIL_SMTP_PORT", Integer.toString(smtp.getSmtp().getPort()));
    settings.put("GATEWAY_MAIL_STARTTLS", "disabled");
    settings.put("GATEWAY_MAIL_FROM", "gateway@example.test");
    settings.put("GATEWAY_MAIL_LINK_SECRET", "approval-link-test-secret-0123456789abcdef");
    settings.put("GATEWAY_RESERVATIONS_SCHEDULER_INTERVAL_MS", "200");
    settings.put("GATEWAY_RESERVATIONS_SANDBOX_INSTANCE_READY_MS", "300");
    node = TestGateway.start(settings);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
    smtp.stop();
  }

  @AfterEach
  void theLedgerChecksOut() {
    assertTrue(ApiClient.ledgerCheck(node).getBoolean("ok"), ApiClient.ledgerCheck(node).encode());
  }

  @Test
  void theMailedLinkApprovesByTheOwnersPostOnceAndTheReservationIsPaidAndRuns() {
    WebSession owner = ownerWithThresholdZero("mail-amy");
    ApiClient agent = ApiClient.signIn(node, "mail-amy");
    agent.saveCard("4242424242424242");
    JsonObject waiting = agent.reserve(OFFER, 2, null, 2, "saved_card");
    String id = waiting.getString("id");
    assertEquals("awaiting_approval", waiting.getString("status"), "the token started with the account's default");

    Matcher mail = mailTo("mail-amy@example.com", id);
    String link = mail.group(1);
    assertEquals(id, mail.group(2));

    HttpResponse<String> anonymous = new WebSession().get(link);
    assertEquals(303, anonymous.statusCode(), "not signed in: to the sign-in page, and back");
    assertTrue(anonymous.headers().firstValue("Location").orElseThrow().startsWith("/signin?return_to="
        + URLEncoder.encode(URI.create(link).getRawPath(), StandardCharsets.UTF_8)), anonymous.headers().toString());

    for (String altered : List.of(link.substring(0, link.length() - 2) + (link.endsWith("AA") ? "BB" : "AA"),
        link.replaceFirst("expires=(\\d+)", "expires=9$1"), link.replace(id, "rsv_someoneelse1"))) {
      assertEquals(403, owner.get(altered).statusCode(), "an altered link is refused: " + altered);
      assertEquals(403, post(owner, altered, csrfOf(owner.get(link)), "approve").statusCode(), altered);
    }
    HttpResponse<String> page = owner.get(link);
    assertEquals(200, page.statusCode(), page.body());
    assertTrue(page.body().contains("Approve and pay") && page.body().contains(id), page.body());
    keep("approval-page.html", page.body());
    assertEquals("awaiting_approval", agent.json("/api/v1/reservations/" + id).getString("status"),
        "opening the link (a GET, as mail scanners do) decides nothing");

    HttpResponse<String> crossSite = owner.send(HttpRequest.newBuilder(URI.create(link))
        .header("Origin", "https://evil.example").header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("decision=approve&csrf_token=" + csrfOf(page))));
    assertEquals(403, crossSite.statusCode(), "another site's form is refused");
    assertEquals(403, post(owner, link, "wrong-token", "approve").statusCode(), "a wrong CSRF token is refused");
    WebSession eve = ownerWithThresholdZero("mail-eve");
    assertEquals(404, post(eve, link, csrfOf(eve.get(node.url("/api/v1/me"))), "approve").statusCode(),
        "another account's person cannot approve it, link or not");
    assertEquals("awaiting_approval", agent.json("/api/v1/reservations/" + id).getString("status"));

    HttpResponse<String> approved = post(owner, link, csrfOf(page), "approve");
    assertEquals(200, approved.statusCode(), approved.body());
    assertTrue(approved.body().contains("<strong id=\"status\">confirmed</strong>"), approved.body());
    JsonObject running = agent.awaitStatus(id, "running");
    assertEquals(running.getJsonObject("price").getJsonObject("total").getLong("amount"),
        running.getJsonObject("payment").getJsonObject("amount_paid").getLong("amount"), "paid in full");

    assertEquals(409, post(owner, link, csrfOf(page), "approve").statusCode(), "a used link is refused");
    assertEquals(409, post(owner, link, csrfOf(page), "decline").statusCode(), "also to decline");
    assertEquals(409, owner.get(link).statusCode());
    assertEquals("running", agent.json("/api/v1/reservations/" + id).getString("status"));
    assertEquals(1L, node.sql("SELECT count(*) FROM audit_log WHERE action = 'reservation.approved' AND target = '"
        + id + "' AND after->>'via' = 'email_link'").iterator().next().getLong(0), "audited, with how");
  }

  @Test
  void theMailedLinkDeclinesNothingChargedAndTheGpusAreFree() {
    WebSession owner = ownerWithThresholdZero("mail-dan");
    ApiClient agent = ApiClient.signIn(node, "mail-dan");
    agent.saveCard("4242424242424242");
    String id = agent.reserve(OFFER, 2, java.time.Instant.now().plus(java.time.Duration.ofDays(3))
        .truncatedTo(java.time.temporal.ChronoUnit.HOURS), 2, "saved_card").getString("id");
    String link = mailTo("mail-dan@example.com", id).group(1);

    HttpResponse<String> declined = post(owner, link, csrfOf(owner.get(link)), "decline");
    assertEquals(200, declined.statusCode(), declined.body());
    assertTrue(declined.body().contains("<strong id=\"status\">cancelled</strong>"), declined.body());
    assertEquals(0L, node.sql("SELECT coalesce(sum(amount), 0) FROM payments WHERE status = 'succeeded'"
        + " AND reservation_id = '" + id + "'").iterator().next().getLong(0), "nothing charged");
    assertEquals(0L, node.sql("SELECT count(*) FROM reservation_gpus WHERE active AND reservation_id = '" + id + "'")
        .iterator().next().getLong(0), "the GPUs are free again");
    assertEquals(409, post(owner, link, csrfOf(owner.get(node.url("/api/v1/me"))), "approve").statusCode(),
        "a declined request's link cannot approve it afterwards");
    assertEquals(1L, node.sql("SELECT count(*) FROM audit_log WHERE action = 'reservation.declined' AND target = '"
        + id + "' AND after->>'via' = 'email_link'").iterator().next().getLong(0));
  }

  /** Keeps the page under target/screenshots, to look at in a browser. */
  private static void keep(String name, String html) {
    try {
      java.nio.file.Path file = java.nio.file.Path.of("target", "screenshots", name);
      java.nio.file.Files.createDirectories(file.getParent());
      java.nio.file.Files.writeString(file, html);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A person signed in whose account's default budget sends every new token's booking to approval. */
  private static WebSession ownerWithThresholdZero(String login) {
    WebSession owner = new WebSession();
    owner.signIn(node, "github", login);
    HttpResponse<String> set = owner.write("PUT", node.url("/api/v1/account/default-budget"),
        new JsonObject().put("approval_threshold", 0));
    assertEquals(200, set.statusCode(), set.body());
    return owner;
  }

  /** The approval mail about {@code id} sent to {@code address}, matched for its link. */
  private static Matcher mailTo(String address, String id) {
    String body = eventually("the approval mail to " + address, () -> Arrays.stream(smtp.getReceivedMessages())
        .filter(m -> recipient(m).equals(address) && subject(m).contains(id)).map(GreenMailUtil::getBody)
        .findFirst().orElse(null), found -> found != null);
    Matcher link = LINK.matcher(body.replace("=\r\n", "").replace("=3D", "="));
    assertTrue(link.find(), body);
    return link;
  }

  private static String recipient(MimeMessage message) {
    try {
      return message.getRecipients(Message.RecipientType.TO)[0].toString();
    } catch (jakarta.mail.MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String subject(MimeMessage message) {
    try {
      return message.getSubject();
    } catch (jakarta.mail.MessagingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String csrfOf(HttpResponse<String> page) {
    Matcher token = CSRF.matcher(page.body());
    if (token.find()) {
      return token.group(1);
    }
    return new JsonObject(page.body()).getString("csrf_token");
  }

  private static HttpResponse<String> post(WebSession who, String link, String csrf, String decision) {
    URI uri = URI.create(link);
    return who.send(HttpRequest.newBuilder(uri).header("Origin", uri.getScheme() + "://" + uri.getAuthority())
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("decision=" + decision
            + (csrf == null ? "" : "&csrf_token=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8)))));
  }
}
