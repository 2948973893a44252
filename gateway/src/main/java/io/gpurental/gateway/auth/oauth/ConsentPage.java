package io.gpurental.gateway.auth.oauth;

import io.gpurental.gateway.auth.tokens.TokenBudget;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The consent page, rendered by the server (it must work before the web app loads and without
 * script): who asks (the client's name and its redirect URI's host), for what (the scopes, each
 * of which the person may untick), and what it may spend (the budget of an API token).
 */
final class ConsentPage {
  static final Map<String, String> SCOPE_TEXT = Map.of(
      "catalog:read", "See the GPU catalog and prices",
      "reservations:read", "See your reservations",
      "reservations:write", "Reserve, extend and cancel GPUs, paid with your saved card");
  private static final List<String[]> BUDGET_FIELDS = List.of(
      new String[] {"daily_cap", "Spend at most per day", "money"},
      new String[] {"monthly_cap", "Spend at most per month", "money"},
      new String[] {"total_cap", "Spend at most in total", "money"},
      new String[] {"max_price_per_gpu_hour", "Highest price per GPU-hour", "money"},
      new String[] {"max_hours", "Longest reservation (hours)", "hours"},
      new String[] {"approval_threshold", "Ask me to approve reservations above", "money"});

  private ConsentPage() {}

  /** A field's value in the budget, as the form takes it: money in major units, hours whole. */
  private static Optional<String> valueOf(TokenBudget budget, String field) {
    Long minor = switch (field) {
      case "daily_cap" -> budget.dailyCap();
      case "monthly_cap" -> budget.monthlyCap();
      case "total_cap" -> budget.totalCap();
      case "max_price_per_gpu_hour" -> budget.maxPricePerGpuHour();
      case "approval_threshold" -> budget.approvalThreshold();
      default -> null;
    };
    if (field.equals("max_hours")) {
      return Optional.ofNullable(budget.maxHours()).map(String::valueOf);
    }
    return Optional.ofNullable(minor).map(cents -> java.math.BigDecimal.valueOf(cents, 2).toPlainString());
  }

  static String render(String requestId, JsonObject pending, String csrfToken, String currency,
      Optional<TokenBudget> prefill) {
    String redirectHost = URI.create(pending.getString("redirect_uri")).getHost();
    StringBuilder scopes = new StringBuilder();
    for (String scope : pending.getString("scope").split(" ")) {
      scopes.append("<li><label><input type=\"checkbox\" name=\"scope\" value=\"").append(escape(scope))
          .append("\" checked> ").append(escape(SCOPE_TEXT.getOrDefault(scope, scope))).append(" <code>")
          .append(escape(scope)).append("</code></label></li>");
    }
    StringBuilder budget = new StringBuilder();
    for (String[] field : BUDGET_FIELDS) {
      boolean money = field[2].equals("money");
      budget.append("<p><label for=\"").append(field[0]).append("\">").append(field[1])
          .append(money ? " (" + escape(currency.toUpperCase(java.util.Locale.ROOT)) + ")" : "")
          .append("</label> <input id=\"").append(field[0]).append("\" name=\"").append(field[0])
          .append("\" inputmode=\"decimal\" placeholder=\"no limit\" ")
          .append(prefill.flatMap(given -> valueOf(given, field[0])).map(value -> "value=\"" + value + "\" ").orElse(""))
          .append(money ? "pattern=\"[0-9]+([.][0-9]{1,2})?\"" : "pattern=\"[0-9]+\"").append("></p>");
    }
    return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Allow %1$s? · GPU Rental Gateway</title>
        <style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
        fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0}label{display:inline-block;min-width:21rem}
        ul{list-style:none;padding-left:0}button{font-size:1rem;padding:.5rem 1rem;margin-right:.5rem}
        .host{font-family:monospace;background:#f2f2f2;padding:0 .25rem}</style></head>
        <body><main>
        <h1>Allow <strong>%1$s</strong> to use your GPU Rental account?</h1>
        <p>After you allow it, you return to <span class="host">%2$s</span>. It may act through the MCP
        endpoint only, with what you tick below, until you revoke it on your Account page.</p>
        <form method="post" action="/oauth/consent">
        <input type="hidden" name="request" value="%3$s"><input type="hidden" name="csrf_token" value="%4$s">
        <fieldset><legend>It may</legend><ul>%5$s</ul></fieldset>
        <fieldset><legend>Budget (leave empty for no limit)</legend>%6$s</fieldset>
        <button type="submit" name="decision" value="allow">Allow</button>
        <button type="submit" name="decision" value="deny">Deny</button>
        </form></main></body></html>
        """.formatted(escape(pending.getString("client_name")), escape(redirectHost), escape(requestId),
        escape(csrfToken), scopes, budget);
  }

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
