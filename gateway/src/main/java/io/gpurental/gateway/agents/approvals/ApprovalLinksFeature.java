package io.gpurental.gateway.agents.approvals;

import io.gpurental.gateway.config.MailConfig;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.platform.mail.Mailer;
import io.gpurental.gateway.reservations.Bookings;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;

/**
 * E-mailed approval links (when mail is configured): the owner of a reservation an agent booked
 * above its token's approval threshold gets a mail with a signed link to {@link ApprovalPage}.
 */
public final class ApprovalLinksFeature implements Feature {
  private final Mailer mailer;
  private final ApprovalPage page;
  private final Handler<RoutingContext> sessions;

  /** The auth feature's part: sessions, who is signed in, form checks and owners' addresses. */
  public interface Owners extends ApprovalPage.Owners {
    Handler<RoutingContext> sessionHandler();

    Future<Optional<String>> emailOf(String accountId);
  }

  private ApprovalLinksFeature(Mailer mailer, ApprovalPage page, Handler<RoutingContext> sessions) {
    this.mailer = mailer;
    this.page = page;
    this.sessions = sessions;
  }

  /** The feature, when {@code mail.smtp_host} is set; it registers itself for the bookings' approval requests. */
  public static Optional<ApprovalLinksFeature> create(Vertx vertx, MailConfig config, String publicBase,
      Bookings bookings, Owners owners) {
    if (config.smtp().isEmpty()) {
      return Optional.empty();
    }
    Mailer mailer = new Mailer(vertx, config.smtp().get());
    ApprovalLinks links = new ApprovalLinks(config.linkSecret(), publicBase, Clock.systemUTC());
    Function<String, Future<Optional<String>>> emailOf = owners::emailOf;
    bookings.onApprovalRequested(new ApprovalMail(mailer, links, emailOf));
    return Optional.of(new ApprovalLinksFeature(mailer, new ApprovalPage(links, bookings, owners),
        owners.sessionHandler()));
  }

  @Override
  public void mount(Router router) {
    router.route("/approvals/*").handler(sessions);
    router.get("/approvals/:id").handler(page::show);
    router.post("/approvals/:id").handler(BodyHandler.create().setBodyLimit(4096)).handler(page::decide);
  }

  @Override
  public Future<Void> close() {
    return mailer.close();
  }
}
