package io.gpurental.gateway.sandbox.identity;

import io.gpurental.gateway.sandbox.Html;
import java.util.List;
import java.util.Map;

/**
 * The sandbox provider's sign-in page: pick a suggested test person or type one. Plain HTML and
 * CSS (no script), posting back to the authorize endpoint.
 */
final class ChooserPage {
  private ChooserPage() {}

  static String render(String providerTitle, String action, String fieldName, String fieldLabel,
      List<String> suggestions, Map<String, String> carried, String error) {
    StringBuilder hidden = new StringBuilder();
    carried.forEach((name, value) -> hidden.append("<input type=\"hidden\" name=\"").append(Html.escape(name))
        .append("\" value=\"").append(Html.escape(value)).append("\">"));
    StringBuilder choices = new StringBuilder();
    for (String suggestion : suggestions) {
      choices.append("<li><button type=\"submit\" name=\"").append(fieldName).append("\" value=\"")
          .append(Html.escape(suggestion)).append("\">").append(Html.escape(suggestion)).append("</button></li>");
    }
    String errorBlock = error == null ? "" : "<p class=\"error\" role=\"alert\">" + Html.escape(error) + "</p>";
    return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <title>Sign in to %1$s (sandbox)</title>
        <style>
          body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1b1f24;margin:0;padding:2rem 1rem}
          main{max-width:28rem;margin:0 auto;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1.5rem}
          h1{font-size:1.3rem;margin-top:0} .note{background:#fff8c5;border:1px solid #d4a72c;padding:.5rem .75rem;border-radius:6px}
          ul{list-style:none;padding:0;display:flex;gap:.5rem;flex-wrap:wrap}
          button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1f6feb;background:#1f6feb;color:#fff;cursor:pointer}
          button.secondary{background:#fff;color:#1f6feb} label{display:block;margin:1rem 0 .25rem;font-weight:600}
          input[type=text],input[type=email]{font:inherit;width:100%%;box-sizing:border-box;padding:.5rem;border:1px solid #8c959f;border-radius:6px}
          .row{display:flex;gap:.5rem;margin-top:1rem} .error{color:#a40e26;font-weight:600}
          :focus-visible{outline:3px solid #0969da;outline-offset:2px}
        </style></head>
        <body><main>
        <h1>Sign in to %1$s</h1>
        <p class="note">Sandbox: this is the gateway's offline stand-in for %1$s. Nothing leaves this machine.</p>
        %2$s
        <form method="post" action="%3$s">%4$s
          <p>Continue as a test person:</p>
          <ul>%5$s</ul>
          <label for="%6$s">Or type %7$s</label>
          <input id="%6$s" type="text" name="%6$s_typed" autocomplete="off" spellcheck="false">
          <div class="row">
            <button type="submit" name="decision" value="approve">Continue</button>
            <button type="submit" name="decision" value="deny" class="secondary">Cancel</button>
          </div>
        </form>
        </main></body></html>
        """.formatted(Html.escape(providerTitle), errorBlock, Html.escape(action), hidden, choices, fieldName,
        Html.escape(fieldLabel));
  }
}
