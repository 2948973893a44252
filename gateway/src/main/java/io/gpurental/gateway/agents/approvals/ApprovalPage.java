package io.gpurental.gateway.agents.approvals;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.errors.ApiException;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.platform.errors.Unauthorized;
import io.gpurental.gateway.reservations.Bookings;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /approvals/{id}?expires=…&sig=…}, the page an e-mailed approval link opens. A GET only
 * shows the reservation and a form; the decision is a POST from that form, by the owner signed
 * in (CSRF token and same-origin Origin checked), so neither a mail scanner that follows links
 * nor whoever else reads the mail (an agent with access to the mailbox) approves anything.
 */
final class ApprovalPage {
  private static final Logger LOG = LoggerFactory.getLogger(ApprovalPage.class);
  private static final JsonObject VIA_LINK = new JsonObject().put("via", "email_link");
  private final ApprovalLinks links;
  private final Bookings bookings;
  private final Owners owners;

  /** Who is signed in and the form checks: the auth feature's. */
  interface Owners {
    Future<Optional<Principal>> signedIn(RoutingContext ctx);

    Optional<String> csrfToken(RoutingContext ctx);

    void checkForm(RoutingContext ctx, String csrfToken);
  }

  ApprovalPage(ApprovalLinks links, Bookings bookings, Owners owners) {
    this.links = links;
    this.bookings = bookings;
    this.owners = owners;
  }

  void show(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (!validLink(ctx, id)) {
      return;
    }
    owners.signedIn(ctx).compose(signedIn -> {
      if (signedIn.isEmpty()) {
        String back = ctx.request().uri();
        ctx.response().setStatusCode(303)
            .putHeader("Location", "/signin?return_to=" + URLEncoder.encode(back, StandardCharsets.UTF_8)).end();
        return Future.succeededFuture();
      }
      return waiting(signedIn.get(), id).map(reservation -> {
        page(ctx, 200, "Approve this reservation?", summary(reservation) + form(ctx, id));
        return null;
      });
    }).onFailure(failure -> refused(ctx, failure));
  }

  void decide(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    if (!validLink(ctx, id)) {
      return;
    }
    String decision = ctx.request().getFormAttribute("decision");
    owners.signedIn(ctx).compose(signedIn -> {
      Principal owner = signedIn.orElseThrow(() -> new Unauthorized(
          "Sign in to the gateway as the reservation's owner, then open the link again."));
      owners.checkForm(ctx, ctx.request().getFormAttribute("csrf_token"));
      return waiting(owner, id).compose(r -> "approve".equals(decision) ? bookings.approve(owner, id, VIA_LINK)
          : "decline".equals(decision) ? bookings.decline(owner, id, VIA_LINK)
          : Future.failedFuture(new Invalid("Choose approve or decline.")));
    }).onSuccess(r -> page(ctx, 200, "approve".equals(decision) ? "Approved" : "Declined",
        "<p>Reservation <code>" + escape(id) + "</code> is now <strong id=\"status\">"
            + escape(r.getString("status")) + "</strong>.</p>" + payLink(r)
            + "<p><a href=\"/reservations/" + escape(id) + "\">Open the reservation</a></p>"))
        .onFailure(failure -> refused(ctx, failure));
  }

  /** Approved without a saved card: the checkout the owner pays at now. */
  private static String payLink(JsonObject r) {
    String checkout = r.getJsonObject("payment", new JsonObject()).getString("checkout_url");
    return checkout == null ? "" : "<p><a id=\"pay\" href=\"" + escape(checkout) + "\">Pay now</a> (before "
        + escape(r.getString("hold_expires_at")) + ")</p>";
  }

  private boolean validLink(RoutingContext ctx, String id) {
    if (links.valid(id, ctx.request().getParam("expires"), ctx.request().getParam("sig"))) {
      return true;
    }
    page(ctx, 403, "This link is not valid", "<p>This approval link was altered or has expired (it expires with"
        + " the reservation's hold). Open the <a href=\"/reservations\">Reservations page</a> to see what waits.</p>");
    return false;
  }

  /** The owner's reservation, only while it waits for approval: a used or lapsed link is refused. */
  private Future<JsonObject> waiting(Principal owner, String id) {
    return bookings.get(owner, id).map(r -> {
      if (!owner.accountId().equals(r.getString("account_id"))) {
        throw new NotFound("No reservation " + id + " of yours.");
      }
      if (!"awaiting_approval".equals(r.getString("status"))) {
        throw new Conflict("This link was used, or the request lapsed: reservation " + id + " is "
            + r.getString("status") + ", no longer awaiting approval.");
      }
      return r;
    });
  }

  private static String summary(JsonObject r) {
    JsonObject total = r.getJsonObject("price").getJsonObject("total");
    return "<p>An agent using one of your API tokens booked this above the token's approval threshold. The GPUs"
        + " are held and nothing is charged until you decide.</p><dl>"
        + row("Reservation", "<code>" + escape(r.getString("id")) + "</code>")
        + row("Offer", escape(r.getString("offer_id")))
        + row("GPUs", String.valueOf(r.getInteger("gpu_count")))
        + row("From", escape(r.getString("start"))) + row("To", escape(r.getString("end")))
        + row("Total", "<strong>" + escape(Money.format(total.getLong("amount"), total.getString("currency")))
            + "</strong>")
        + row("Decide before", escape(r.getString("hold_expires_at"))) + "</dl>";
  }

  private static String row(String term, String value) {
    return "<dt>" + term + "</dt><dd>" + value + "</dd>";
  }

  private String form(RoutingContext ctx, String id) {
    return "<form method=\"post\" action=\"" + escape(ctx.request().uri()) + "\">"
        + "<input type=\"hidden\" name=\"csrf_token\" value=\"" + escape(owners.csrfToken(ctx).orElse("")) + "\">"
        + "<button type=\"submit\" name=\"decision\" value=\"approve\">Approve and pay</button> "
        + "<button type=\"submit\" name=\"decision\" value=\"decline\" class=\"secondary\">Decline</button></form>";
  }

  private static void refused(RoutingContext ctx, Throwable failure) {
    if (failure instanceof ApiException problem) {
      page(ctx, problem.status(), problem.title(), "<p id=\"problem\">" + escape(problem.detail()) + "</p>"
          + "<p><a href=\"/reservations\">Your reservations</a></p>");
    } else {
      LOG.error("Approval page failed", failure);
      page(ctx, 500, "Something went wrong", "<p>Please try again, or decide on the Reservations page.</p>");
    }
  }

  private static void page(RoutingContext ctx, int status, String title, String body) {
    if (ctx.response().ended()) {
      return;
    }
    ctx.response().setStatusCode(status).putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Cache-Control", "no-store").putHeader("Referrer-Policy", "no-referrer")
        .end("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\""
            + " content=\"width=device-width, initial-scale=1\"><title>" + escape(title) + " · GPU Rental</title>"
            + "<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;"
            + "color:#1a1a1a}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{color:#555}"
            + "dd{margin:0}button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1f5fbf;"
            + "background:#1f5fbf;color:#fff;cursor:pointer}button.secondary{background:#fff;color:#1f5fbf}"
            + "</style></head><body><h1>" + escape(title) + "</h1>" + body + "</body></html>");
  }

  private static String escape(String text) {
    return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;").replace("'", "&#39;");
  }
}
