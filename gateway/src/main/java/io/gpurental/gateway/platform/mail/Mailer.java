package io.gpurental.gateway.platform.mail;

import io.gpurental.gateway.config.MailConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.mail.LoginOption;
import io.vertx.ext.mail.MailClient;
import io.vertx.ext.mail.MailMessage;
import io.vertx.ext.mail.StartTLSOptions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Plain-text mail to one person through the configured SMTP server (Vert.x's non-blocking client). */
public final class Mailer {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private final MailClient client;
  private final String from;

  public Mailer(Vertx vertx, MailConfig.Smtp smtp) {
    boolean login = !smtp.username().isEmpty();
    this.from = smtp.from();
    this.client = MailClient.create(vertx, new io.vertx.ext.mail.MailConfig()
        .setHostname(smtp.host())
        .setPort(smtp.port())
        .setStarttls(StartTLSOptions.valueOf(smtp.startTls().name()))
        .setLogin(login ? LoginOption.REQUIRED : LoginOption.DISABLED)
        .setUsername(login ? smtp.username() : null)
        .setPassword(login ? smtp.password() : null)
        .setConnectTimeout((int) TIMEOUT.toMillis()));
  }

  public Future<Void> send(String to, String subject, String text) {
    return client.sendMail(new MailMessage().setFrom(from).setTo(to).setSubject(subject).setText(text))
        .timeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).mapEmpty();
  }

  public Future<Void> close() {
    return client.close();
  }
}
