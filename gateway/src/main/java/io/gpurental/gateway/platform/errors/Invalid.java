package io.gpurental.gateway.platform.errors;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** 400: the request is well-formed but a value is wrong; {@code errors} lists each field problem. */
public final class Invalid extends ApiException {
  public Invalid(String detail) {
    this(detail, List.of());
  }

  public Invalid(String detail, List<FieldError> errors) {
    super(400, "invalid-request", "Invalid request", detail, errorsOf(errors));
  }

  private static JsonObject errorsOf(List<FieldError> errors) {
    if (errors.isEmpty()) {
      return null;
    }
    JsonArray array = new JsonArray();
    errors.forEach(e -> array.add(e.toJson()));
    return new JsonObject().put("errors", array);
  }

  /** One field's problem: a JSON pointer into the request (e.g. {@code #/hours}) and what is wrong. */
  public record FieldError(String pointer, String detail) {
    JsonObject toJson() {
      return new JsonObject().put("pointer", pointer).put("detail", detail);
    }
  }
}
