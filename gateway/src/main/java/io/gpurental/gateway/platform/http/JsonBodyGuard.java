package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.platform.errors.MalformedJson;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;

/**
 * The API accepts JSON bodies only: a body in another media type gets 415 and a body that does
 * not parse gets 400 naming where it broke, and one with a NUL character in a string gets 400
 * naming that field, before any route sees it.
 */
public final class JsonBodyGuard implements Handler<RoutingContext> {
  @Override
  public void handle(RoutingContext ctx) {
    Buffer body = ctx.body().buffer();
    if (body == null || body.length() == 0) {
      ctx.next();
      return;
    }
    String contentType = ctx.request().getHeader("Content-Type");
    if (!isJson(contentType)) {
      ctx.fail(new HttpException(415));
      return;
    }
    Object decoded;
    try {
      decoded = Json.decodeValue(body);
    } catch (DecodeException e) {
      ctx.fail(new MalformedJson(e));
      return;
    }
    NulCharacters.checkJson(decoded);
    ctx.next();
  }

  static boolean isJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(java.util.Locale.ROOT);
    return mediaType.equals("application/json") || mediaType.endsWith("+json");
  }
}
