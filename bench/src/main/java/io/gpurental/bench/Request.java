package io.gpurental.bench;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;

/** One request a scenario sends: method, path (with query), headers and an optional body. */
public record Request(HttpMethod method, String path, MultiMap headers, Buffer body) {
  public static Request get(String path, MultiMap headers) {
    return new Request(HttpMethod.GET, path, headers, null);
  }

  public static Request post(String path, MultiMap headers, Buffer body) {
    return new Request(HttpMethod.POST, path, headers, body);
  }
}
