package io.gpurental.gateway.operator.alerts;

import io.gpurental.gateway.config.AlertsConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mail.LoginOption;
import io.vertx.ext.mail.MailClient;
import io.vertx.ext.mail.MailConfig;
import io.vertx.ext.mail.MailMessage;
import io.vertx.ext.mail.StartTLSOptions;
import java.time.Duration;

/** Mails each notification to {@code alerts.email.to} through the configured SMTP server. */
final class EmailChannel implements Channel {
  private final MailClient client;
  private final AlertsConfig.Email email;
  private final Duration timeout;

  EmailChannel(Vertx vertx, AlertsConfig.Email email, Duration timeout) {
    this.email = email;
    this.timeout = timeout;
    boolean login = !email.username().isEmpty();
    this.client = MailClient.create(vertx, new MailConfig()
        .setHostname(email.smtpHost())
        .setPort(email.smtpPort())
        .setStarttls(StartTLSOptions.valueOf(email.startTls().name()))
        .setLogin(login ? LoginOption.REQUIRED : LoginOption.DISABLED)
        .setUsername(login ? email.username() : null)
        .setPassword(login ? email.password() : null)
        .setConnectTimeout((int) timeout.toMillis()));
  }

  @Override
  public String name() {
    return EMAIL;
  }

  static String subject(Notification n) {
    return "[gateway alert] " + n.transition() + ": " + n.rule() + " " + n.target();
  }

  static String text(Notification n) {
    return "Incident " + n.incidentId() + " " + n.transition() + " at " + n.at().toInstant() + "\n"
        + "Rule: " + n.rule() + "\nTarget: " + n.target() + "\n\nDetails:\n"
        + new JsonObject(n.detailsJson()).encodePrettily() + "\n";
  }

  @Override
  public Future<Outcome> send(Notification notification) {
    MailMessage message = new MailMessage().setFrom(email.from()).setTo(email.to())
        .setSubject(subject(notification)).setText(text(notification));
    return client.sendMail(message)
        .timeout(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
        .map(result -> Outcome.delivered(null))
        .otherwise(e -> Outcome.failed(null, e.getClass().getSimpleName() + ": " + e.getMessage()));
  }

  @Override
  public Future<Void> close() {
    return client.close();
  }
}
