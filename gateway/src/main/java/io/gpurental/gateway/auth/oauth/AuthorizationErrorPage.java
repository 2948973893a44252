package io.gpurental.gateway.auth.oauth;

/**
 * What {@code GET /oauth/authorize} answers for a request it refuses before the person has seen
 * the consent page: a 400 page here, never a redirect. Anyone may register a client, so a
 * registered redirect URI is still a stranger's: redirecting errors to it at once would make this
 * domain an open redirector (RFC 9700 §4.11.2). The page names the error for the person and for
 * whoever wrote the client.
 */
final class AuthorizationErrorPage {
  private AuthorizationErrorPage() {}

  static String render(String error, String description) {
    return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>Authorization refused</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;"
        + "margin:3rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f0f0f0;padding:0 .25rem}</style></head><body>"
        + "<h1>This authorization request cannot go on</h1>"
        + "<p>" + ConsentPage.escape(description) + "</p>"
        + "<p>Error: <code>" + ConsentPage.escape(error) + "</code>. Nothing was granted, and you were not sent"
        + " anywhere. Start again from the application that sent you here, or tell its authors.</p>"
        + "</body></html>";
  }
}
