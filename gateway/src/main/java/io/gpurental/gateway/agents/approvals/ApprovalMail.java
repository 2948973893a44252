package io.gpurental.gateway.agents.approvals;

import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.mail.Mailer;
import io.gpurental.gateway.reservations.ApprovalRequests;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * E-mails the owner of each reservation that waits for approval a signed link to its approval
 * page. Sent once, after commit, by the node that booked; a mail that cannot be sent is logged
 * (the Reservations page still lists what waits, and the agent has the page's address).
 */
final class ApprovalMail implements ApprovalRequests {
  private static final Logger LOG = LoggerFactory.getLogger(ApprovalMail.class);
  private final Mailer mailer;
  private final ApprovalLinks links;
  private final Function<String, Future<Optional<String>>> emailOf;

  ApprovalMail(Mailer mailer, ApprovalLinks links, Function<String, Future<Optional<String>>> emailOf) {
    this.mailer = mailer;
    this.links = links;
    this.emailOf = emailOf;
  }

  @Override
  public void requested(JsonObject reservation) {
    String id = reservation.getString("id");
    emailOf.apply(reservation.getString("account_id")).compose(email -> {
      if (email.isEmpty()) {
        LOG.info("Reservation {} waits for approval; its account has no e-mail address to tell", id);
        return Future.succeededFuture();
      }
      return mailer.send(email.get(), subject(reservation), text(reservation,
          links.linkTo(id, Instant.parse(reservation.getString("hold_expires_at")))));
    }).onFailure(failure -> LOG.warn("Could not e-mail the approval request of {}: {}", id, failure.toString()));
  }

  static String subject(JsonObject r) {
    return "Approve " + total(r) + " for " + r.getInteger("gpu_count") + " GPU" + (r.getInteger("gpu_count") == 1 ? ""
        : "s") + " × " + r.getInteger("hours") + " h? (" + r.getString("id") + ")";
  }

  static String text(JsonObject r, String link) {
    return "An agent using one of your API tokens booked a reservation above the token's approval threshold.\n\n"
        + "Reservation: " + r.getString("id") + "\nOffer: " + r.getString("offer_id") + "\nGPUs: "
        + r.getInteger("gpu_count") + "\nFrom: " + r.getString("start") + "\nTo: " + r.getString("end")
        + "\nTotal: " + total(r) + "\n\nThe GPUs are held and nothing is charged until you decide. To approve or"
        + " decline it, open (signed in to the gateway):\n\n" + link + "\n\nThe link works once and expires with the"
        + " hold at " + r.getString("hold_expires_at") + "; then the request lapses and the GPUs are released.\n";
  }

  private static String total(JsonObject r) {
    JsonObject total = r.getJsonObject("price").getJsonObject("total");
    return Money.format(total.getLong("amount"), total.getString("currency"));
  }
}
