package io.gpurental.gateway.platform.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import java.util.Locale;
import java.util.Set;

/**
 * Vert.x's BodyHandler decodes form and multipart bodies only for POST, PUT, PATCH and DELETE; for
 * any other method it throws, which answered 500 (found by ContractFuzzTest: a GET declaring
 * {@code Content-Type: multipart/form-data}). Such a request gets 415 here, before it. Form posts
 * (OAuth's token endpoint, the sandbox's pages) use POST and pass untouched.
 */
final class FormBodyMethods implements Handler<RoutingContext> {
  private static final Set<HttpMethod> DECODED = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
      HttpMethod.DELETE);

  @Override
  public void handle(RoutingContext ctx) {
    String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
    if (contentType != null && !DECODED.contains(ctx.request().method()) && isForm(contentType)) {
      ctx.fail(new HttpException(415));
      return;
    }
    ctx.next();
  }

  static boolean isForm(String contentType) {
    String lower = contentType.toLowerCase(Locale.ROOT);
    return lower.startsWith("multipart/form-data") || lower.startsWith("application/x-www-form-urlencoded");
  }
}
