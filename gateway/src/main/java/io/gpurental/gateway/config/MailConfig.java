package io.gpurental.gateway.config;

import java.util.Optional;

/**
 * Mail to account owners (an agent's reservation waiting for their approval, with a signed link):
 * the SMTP server, when one is configured, and the key that signs the links.
 */
public record MailConfig(Optional<Smtp> smtp, String linkSecret) {

  /** An SMTP server and the address mail to owners is sent from. */
  public record Smtp(String host, int port, AlertsConfig.StartTls startTls, String username, String password,
      String from) {}

  static MailConfig from(Settings s) {
    if (s.string("mail.smtp_host").isEmpty()) {
      return new MailConfig(Optional.empty(), "");
    }
    String secret = s.string("mail.link_secret");
    if (secret.length() < 32) {
      throw new ConfigException("mail.link_secret", "must be at least 32 characters when mail.smtp_host is set"
          + " (it signs e-mailed approval links; the same on every node); set "
          + ConfigLoader.environmentVariable("mail.link_secret"));
    }
    return new MailConfig(Optional.of(new Smtp(s.nonBlank("mail.smtp_host"), s.port("mail.smtp_port"),
        s.oneOf("mail.starttls", AlertsConfig.StartTls.class), s.string("mail.username"), s.string("mail.password"),
        s.nonBlank("mail.from"))), secret);
  }
}
