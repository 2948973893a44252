package io.gpurental.gateway.platform.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Gives every request an id, echoed as {@code X-Request-Id}: the caller's own when it sends a
 * sane one (so ids can follow a request through a load balancer), otherwise a new UUID.
 */
public final class RequestIds implements Handler<RoutingContext> {
  public static final String HEADER = "X-Request-Id";
  private static final String KEY = "requestId";
  private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._:-]{8,128}");

  @Override
  public void handle(RoutingContext ctx) {
    String incoming = ctx.request().getHeader(HEADER);
    String id = incoming != null && SANE.matcher(incoming).matches() ? incoming : UUID.randomUUID().toString();
    ctx.put(KEY, id);
    ctx.response().putHeader(HEADER, id);
    ctx.next();
  }

  public static String of(RoutingContext ctx) {
    String id = ctx.get(KEY);
    return id == null ? "unknown" : id;
  }
}
