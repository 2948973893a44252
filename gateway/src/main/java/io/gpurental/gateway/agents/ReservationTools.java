package io.gpurental.gateway.agents;

import io.gpurental.gateway.platform.Hashes;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.reservations.Bookings;
import io.vertx.core.Future;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code create_reservation}, {@code get_reservation}, {@code list_reservations},
 * {@code extend_reservation}, {@code cancel_reservation}: the reservations feature's
 * {@link Bookings}, the service behind {@code /api/v1/reservations}. Writes carry an idempotency
 * key: the caller's, or one derived from the tool and its arguments, so a client's retry of the
 * same call books and charges once.
 */
final class ReservationTools {
  private static final int DEFAULT_LIMIT = 20;
  /** The arguments that are the reservation request itself (the body of POST /reservations). */
  private static final Set<String> REQUEST_FIELDS = Set.of("quote_id", "offer_id", "gpu_count", "start", "hours",
      "ssh_public_key", "ssh_key_id", "image", "ports");
  private final Bookings bookings;
  private final String publicBase;

  ReservationTools(Bookings bookings, String publicBase) {
    this.bookings = bookings;
    this.publicBase = publicBase;
  }

  Map<String, ToolCalls.Work> work() {
    return Map.of(
        "create_reservation", this::create,
        "get_reservation", call -> bookings.get(call.caller(), call.args().getString("reservation_id")),
        "list_reservations", call -> bookings.list(call.caller(), call.args().getString("status"),
            call.args().getString("cursor"), call.args().getInteger("limit", DEFAULT_LIMIT)),
        "extend_reservation", this::extend,
        "cancel_reservation", call -> bookings.cancel(call.caller(), call.args().getString("reservation_id")));
  }

  /** With a saved card the card is charged now; otherwise the GPUs are held for a human's checkout. */
  private Future<JsonObject> create(ToolCalls.Call call) {
    JsonObject body = new JsonObject();
    call.args().forEach(e -> {
      if (REQUEST_FIELDS.contains(e.getKey())) {
        body.put(e.getKey(), e.getValue());
      }
    });
    return bookings.hasSavedCard(call.caller()).compose(saved -> {
      body.put("payment", saved ? "saved_card" : "checkout");
      return bookings.create(call.caller(), body, key(call), call.onProblem())
          .compose(answer -> paid(answer, saved))
          .compose(answer -> answer.getString("checkout_url") == null ? Future.succeededFuture(answer)
              : call.urlElicitation().get().compose(url -> url ? Future.failedFuture(elicitation(answer))
                  : Future.succeededFuture(answer)));
    });
  }

  /**
   * For a client that declared URL-mode elicitation: the JSON-RPC error {@code -32042}
   * (URLElicitationRequiredError, MCP 2025-11-25) naming the checkout page, its elicitation id the
   * reservation's, so a retry under the same idempotency key answers the same elicitation.
   */
  private static McpError elicitation(JsonObject answer) {
    JsonObject reservation = answer.getJsonObject("reservation");
    JsonObject total = reservation.getJsonObject("price", new JsonObject()).getJsonObject("total");
    String amount = total == null ? "the reservation"
        : Money.format(total.getLong("amount"), total.getString("currency"));
    String message = "Pay " + amount + " for reservation " + reservation.getString("id") + " at this checkout page."
        + " The GPUs are held until " + reservation.getString("hold_expires_at") + "; unpaid by then, the hold ends.";
    Map<String, Object> url = new LinkedHashMap<>();
    url.put("mode", "url");
    url.put("elicitationId", reservation.getString("id"));
    url.put("url", answer.getString("checkout_url"));
    url.put("message", message);
    return McpError.builder(McpSchema.ErrorCodes.URL_ELICITATION_REQUIRED)
        .message("A human must pay at the checkout page: " + message)
        .data(Map.of("elicitations", List.of(url)))
        .build();
  }

  private Future<JsonObject> extend(ToolCalls.Call call) {
    JsonObject args = call.args();
    return bookings.hasSavedCard(call.caller()).compose(saved -> bookings.extend(call.caller(),
            args.getString("reservation_id"), args.getInteger("hours"), saved ? "saved_card" : "checkout", key(call),
            call.onProblem())
        .compose(answer -> paid(answer, saved)));
  }

  /** The reservation and, unless the card paid it, where a human pays (a replayed failure stays one). */
  private Future<JsonObject> paid(Bookings.Answer booked, boolean savedCard) {
    if (booked.failed()) {
      return Future.failedFuture(new ReplayedProblem(new JsonObject(booked.body())));
    }
    JsonObject reservation = new JsonObject(booked.body());
    boolean awaiting = "awaiting_approval".equals(reservation.getString("status"));
    // nobody pays before the owner approved
    String checkoutUrl = awaiting ? null : checkoutUrl(reservation);
    String method = reservation.getJsonObject("payment", new JsonObject()).getString("method",
        savedCard ? "saved_card" : "checkout");
    String next = awaiting
        ? "Above this token's approval threshold: the owner must approve it at approval_url (signed in) before "
            + reservation.getString("hold_expires_at") + ". Poll get_reservation for the status."
        : checkoutUrl != null
        ? "A human must open checkout_url and pay before " + reservation.getString("hold_expires_at")
            + "; until then the GPUs are held. Poll get_reservation for the status."
        : "Paid. Poll get_reservation until status is running; its ssh member then says how to log in.";
    JsonObject answer = new JsonObject().put("reservation", reservation).put("payment_method", method)
        .put("checkout_url", checkoutUrl).put("next_step", next);
    if (awaiting) {
      answer.put("approval_url", publicBase + "/reservations/" + reservation.getString("id"));
    }
    return Future.succeededFuture(answer);
  }

  /** The open checkout: the reservation's own, or its newest extension's. */
  private static String checkoutUrl(JsonObject reservation) {
    String own = reservation.getJsonObject("payment", new JsonObject()).getString("checkout_url");
    if (own != null) {
      return own;
    }
    var extensions = reservation.getJsonArray("extensions");
    for (int i = extensions == null ? -1 : extensions.size() - 1; i >= 0; i--) {
      String url = extensions.getJsonObject(i).getString("checkout_url");
      if (url != null) {
        return url;
      }
    }
    return null;
  }

  /** The caller's key, else one derived from the call (same tool, same arguments: same key). */
  private static String key(ToolCalls.Call call) {
    String given = call.args().getString("idempotency_key");
    if (given != null) {
      return given;
    }
    return "mcp:" + call.tool() + ":" + Hashes.sha256Hex(canonical(call.args()));
  }

  private static String canonical(JsonObject args) {
    StringBuilder text = new StringBuilder();
    args.fieldNames().stream().sorted().forEach(name -> text.append(name).append('=')
        .append(args.getValue(name)).append('\n'));
    return text.toString();
  }
}
