package io.gpurental.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gpurental.gateway.testing.GatewayTest;
import io.gpurental.gateway.testing.TestGateway;
import io.gpurental.gateway.testing.WebSession;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Behind TLS (an https public URL) the session cookie is __Host- prefixed and Secure, with HSTS.
 * Sandbox mode refuses https; production with a (never contacted) GitHub client will do.
 */
@GatewayTest(settings = {
    "GATEWAY_HTTP_PUBLIC_URL=https://gateway.example",
    "GATEWAY_MODE=production",
    "GATEWAY_AUTH_GITHUB_CLIENT_ID=Iv1.test",
    "GATEWAY_AUTH_GITHUB_CLIENT_SECRET=not-used",
    "GATEWAY_PRICING_QUOTE_SIGNING_KEY=a-test-key-of-at-least-32-characters!",
    "GATEWAY_STRIPE_SECRET_KEY=sk_test_never_contacted",
    "GATEWAY_STRIPE_WEBHOOK_SECRET=whsec_never_used"})
class TlsCookieTest {
  @Test
  void httpsPublicUrlMakesTheCookieSecure(TestGateway node) {
    HttpResponse<String> start = new WebSession().get(node.url("/auth/github"));
    String setCookie = start.headers().allValues("Set-Cookie").stream()
        .filter(c -> c.startsWith(Sessions.TLS_COOKIE + "=")).findFirst()
        .orElseThrow(() -> new AssertionError("no __Host- cookie in " + start.headers().map()));
    assertTrue(setCookie.contains("Secure"), setCookie);
    assertTrue(setCookie.contains("Path=/"), setCookie);
    assertTrue(setCookie.contains("SameSite=Lax"), setCookie);
    assertTrue(start.headers().firstValue("Strict-Transport-Security").isPresent());
    String location = start.headers().firstValue("Location").orElseThrow();
    assertTrue(location.startsWith("https://github.com/login/oauth/authorize?"), location);
    assertTrue(location.contains("redirect_uri=https%3A%2F%2Fgateway.example%2Fauth%2Fgithub%2Fcallback"), location);
    assertEquals(404, new WebSession().get(node.url("/sandbox/github/login/oauth/authorize")).statusCode(),
        "no sandbox in production");
  }
}
