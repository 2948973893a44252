package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.platform.ApiContract;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Refuses NUL characters (U+0000) in path parameters, query values and JSON strings, naming the
 * field: PostgreSQL text cannot hold them, so they would otherwise fail deep in SQL as a 500.
 */
final class NulCharacters implements Handler<RoutingContext> {
  private static final char NUL = '\u0000';
  private final List<String> pathTemplates;

  NulCharacters(OpenAPIContract contract) {
    this.pathTemplates = contract.getPaths().stream().map(Path::getName).toList();
  }

  @Override
  public void handle(RoutingContext ctx) {
    // a NUL reaches a URL only percent-encoded (the HTTP codec refuses a raw one)
    if (ctx.request().path().contains("%00")) {
      checkPath(ctx.request().path());
    }
    for (Map.Entry<String, String> query : ctx.queryParams()) {
      check(query.getKey(), query.getValue());
    }
    ctx.next();
  }

  /**
   * Root handlers run before the operation's route has parsed its path parameters, so the
   * parameter is named from the contract's path template whose segment holds the NUL.
   */
  private void checkPath(String rawPath) {
    String[] actual = rawPath.substring(ApiContract.BASE_PATH.length()).split("/", -1);
    for (String template : pathTemplates) {
      String[] expected = template.split("/", -1);
      if (matches(expected, actual)) {
        for (int i = 0; i < expected.length; i++) {
          if (actual[i].contains("%00")) {
            throw refusal("#/" + expected[i].substring(1, expected[i].length() - 1));
          }
        }
      }
    }
  }

  private static boolean matches(String[] template, String[] actual) {
    if (template.length != actual.length) {
      return false;
    }
    for (int i = 0; i < template.length; i++) {
      if (!template[i].startsWith("{") && !template[i].equals(actual[i])) {
        return false;
      }
    }
    return true;
  }

  /** Fails with 400 naming the first string (or property name) in a decoded JSON body that holds a NUL. */
  static void checkJson(Object body) {
    firstIn(body, "#").ifPresent(pointer -> {
      throw refusal(pointer);
    });
  }

  private static void check(String name, String value) {
    if (name.indexOf(NUL) >= 0 || value.indexOf(NUL) >= 0) {
      throw refusal("#/" + name.replace(NUL, '?'));
    }
  }

  private static Optional<String> firstIn(Object value, String pointer) {
    Object json = value instanceof Map<?, ?> map ? new JsonObject(cast(map))
        : value instanceof List<?> list ? new JsonArray(list) : value;
    if (json instanceof String text) {
      return text.indexOf(NUL) >= 0 ? Optional.of(pointer) : Optional.empty();
    }
    if (json instanceof JsonObject object) {
      for (Map.Entry<String, Object> member : object) {
        String at = pointer + "/" + member.getKey().replace("~", "~0").replace("/", "~1");
        Optional<String> found = member.getKey().indexOf(NUL) >= 0 ? Optional.of(at) : firstIn(member.getValue(), at);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    if (json instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        Optional<String> found = firstIn(array.getValue(i), pointer + "/" + i);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Map<?, ?> map) {
    return (Map<String, Object>) map;
  }

  private static Invalid refusal(String pointer) {
    return new Invalid("NUL characters (U+0000) are not allowed: " + pointer + " contains one.",
        List.of(new Invalid.FieldError(pointer, "must not contain NUL (U+0000)")));
  }
}
