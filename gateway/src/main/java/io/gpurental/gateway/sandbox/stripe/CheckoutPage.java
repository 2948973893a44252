package io.gpurental.gateway.sandbox.stripe;

import io.gpurental.gateway.sandbox.Html;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.util.Locale;

/** The hosted checkout page and the card-authentication step, as plain HTML (no script). */
final class CheckoutPage {
  private CheckoutPage() {}

  static String form(JsonObject session, String error, JsonObject entered) {
    boolean setup = "setup".equals(session.getString("mode"));
    StringBuilder lines = new StringBuilder();
    JsonArray items = session.getJsonObject(Objects.PRIVATE).getJsonArray("line_items", new JsonArray());
    for (int i = 0; i < items.size(); i++) {
      JsonObject line = items.getJsonObject(i);
      lines.append("<tr><td>").append(Html.escape(line.getString("description"))).append(" × ").append(line.getLong("quantity"))
          .append("</td><td class=\"amount\">").append(money(line.getLong("amount_total"), line.getString("currency")))
          .append("</td></tr>");
    }
    String total = setup ? "" : "<tr class=\"total\"><th>Total</th><th class=\"amount\" id=\"checkout-total\">"
        + money(session.getLong("amount_total"), session.getString("currency")) + "</th></tr>";
    String cancel = session.getString("cancel_url") == null ? ""
        : "<p><a href=\"" + Html.escape(session.getString("cancel_url")) + "\">Cancel and return</a></p>";
    return page(setup ? "Save a card" : "Pay", """
        <h1>%s</h1>
        %s
        <table class="items">%s%s</table>
        %s
        <form method="post" novalidate>
          <label for="card-number">Card number</label>
          <input id="card-number" name="card_number" inputmode="numeric" autocomplete="cc-number" value="%s" required>
          <div class="row">
            <div><label for="card-expiry">Expiry (MM / YY)</label>
            <input id="card-expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" value="%s" required></div>
            <div><label for="card-cvc">CVC</label>
            <input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" value="%s" required></div>
          </div>
          <label for="card-name">Name on card</label>
          <input id="card-name" name="name" autocomplete="cc-name" value="%s" required>
          <button id="submit-payment" type="submit">%s</button>
        </form>
        %s
        <details><summary>Test cards</summary><ul>
          <li>4242 4242 4242 4242: succeeds</li><li>4000 0000 0000 0002: declined</li>
          <li>4000 0000 0000 9995: insufficient funds</li><li>4000 0025 0000 3155: requires authentication</li>
          <li>4000 0000 0000 0341: can be saved; later charges fail</li></ul></details>
        """.formatted(setup ? "Save a card for later payments" : "Pay for your GPU reservation",
        error == null ? "" : "<p class=\"error\" role=\"alert\" id=\"payment-error\">" + Html.escape(error) + "</p>",
        lines, total, session.getString("customer") == null ? "" : "<p class=\"muted\">Customer "
            + Html.escape(session.getString("customer")) + "</p>",
        Html.escape(entered.getString("card_number", "")), Html.escape(entered.getString("expiry", "")), "",
        Html.escape(entered.getString("name", "")), setup ? "Save card" : "Pay "
            + money(session.getLong("amount_total"), session.getString("currency")), cancel));
  }

  static String authenticate(String intentId, long amount, String currency) {
    return page("Authenticate payment", """
        <h1>Authenticate this payment</h1>
        <p>Your bank asks you to confirm a payment of <strong>%s</strong> (sandbox 3-D Secure test).</p>
        <form method="post"><div class="row">
          <button id="authorize-payment" type="submit" name="decision" value="complete">Complete authentication</button>
          <button id="fail-authentication" type="submit" name="decision" value="fail" class="secondary">Fail authentication</button>
        </div></form>
        <p class="muted">%s</p>
        """.formatted(money(amount, currency), Html.escape(intentId)));
  }

  static String message(String title, String text) {
    return page(title, "<h1>" + Html.escape(title) + "</h1><p id=\"checkout-message\">" + Html.escape(text) + "</p>");
  }

  private static String page(String title, String body) {
    return """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <title>%s · Stripe sandbox</title>
        <style>
          body{font-family:system-ui,sans-serif;background:#f6f9fc;color:#1a1f36;margin:0;padding:2rem 1rem}
          main{max-width:28rem;margin:0 auto;background:#fff;border:1px solid #e3e8ee;border-radius:8px;padding:1.5rem}
          h1{font-size:1.25rem;margin-top:0} .note{background:#fff8c5;border:1px solid #d4a72c;padding:.5rem .75rem;border-radius:6px}
          table{width:100%%;border-collapse:collapse;margin:1rem 0} td,th{padding:.35rem 0;text-align:left}
          .amount{text-align:right} .total th{border-top:1px solid #e3e8ee}
          label{display:block;margin:.75rem 0 .25rem;font-weight:600}
          input{font:inherit;width:100%%;box-sizing:border-box;padding:.5rem;border:1px solid #8792a2;border-radius:6px}
          .row{display:flex;gap:.75rem} .row>div{flex:1}
          button{font:inherit;margin-top:1rem;padding:.6rem 1rem;border:0;border-radius:6px;background:#635bff;color:#fff;cursor:pointer;width:100%%}
          button.secondary{background:#fff;color:#635bff;border:1px solid #635bff}
          .error{color:#a40e26;font-weight:600} .muted{color:#697386;font-size:.9rem}
          :focus-visible{outline:3px solid #0969da;outline-offset:2px}
        </style></head><body><main>
        <p class="note">Stripe sandbox: no real card is charged.</p>
        %s
        </main></body></html>
        """.formatted(Html.escape(title), body);
  }

  static String money(Long minor, String currency) {
    if (minor == null) {
      return "";
    }
    return BigDecimal.valueOf(minor, 2).toPlainString() + " " + Html.escape(currency == null ? "" : currency.toUpperCase(Locale.ROOT));
  }
}
