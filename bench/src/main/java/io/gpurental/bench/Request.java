package io.gpurental.bench;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.util.function.Function;

/**
 * One request a scenario sends: method, path (with query), headers and an optional body; and
 * optionally the request that follows it, made from its answer's body (a hold and its release),
 * both timed as one.
 */
public record Request(HttpMethod method, String path, MultiMap headers, Buffer body, Function<Buffer, Request> then) {
  public static Request get(String path, MultiMap headers) {
    return new Request(HttpMethod.GET, path, headers, null, null);
  }

  public static Request post(String path, MultiMap headers, Buffer body) {
    return new Request(HttpMethod.POST, path, headers, body, null);
  }

  /** This request, then the one {@code next} makes from its answer (sent only if this one succeeded). */
  public Request then(Function<Buffer, Request> next) {
    return new Request(method, path, headers, body, next);
  }
}
