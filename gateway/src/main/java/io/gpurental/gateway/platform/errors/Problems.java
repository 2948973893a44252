package io.gpurental.gateway.platform.errors;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.HttpException;
import io.vertx.json.schema.OutputUnit;
import io.vertx.openapi.validation.SchemaValidationException;
import io.vertx.openapi.validation.ValidatorException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Turns any failure (domain exception, HTTP status, validation error, bug) into a {@link Problem}. */
public final class Problems {
  private Problems() {}

  /**
   * The problem for a failed request. Unknown exceptions become a 500 whose detail reveals nothing
   * of the cause; the caller logs the cause.
   */
  public static Problem of(Throwable failure, int statusCode, HttpMethod method, String path, long bodyLimit) {
    if (failure instanceof HttpException http && http.getCause() instanceof ValidatorException validation) {
      // the OpenAPI router wraps its validation failures in a bare 400
      return of(validation, statusCode, method, path, bodyLimit);
    }
    if (failure instanceof ApiException api) {
      return new Problem(api.type(), api.title(), api.status(), api.detail(), api.extensions());
    }
    if (failure instanceof SchemaValidationException schema) {
      return new Problem("invalid-request", "Invalid request", 400, schema.getMessage(), fieldErrors(schema));
    }
    if (failure instanceof ValidatorException validation) {
      return validationProblem(validation);
    }
    if (failure instanceof DecodeException decode) {
      return of(new MalformedJson(decode), statusCode, method, path, bodyLimit);
    }
    int status = failure instanceof HttpException http ? http.getStatusCode() : statusCode;
    return ofStatus(status < 400 ? 500 : status, method, path, bodyLimit);
  }

  /** The problem for a plain HTTP status, with a detail that tells the client what to change. */
  public static Problem ofStatus(int status, HttpMethod method, String path, long bodyLimit) {
    return switch (status) {
      case 400 -> new Problem("bad-request", "Bad request", 400, "The request could not be understood.", null);
      case 401 -> new Problem("unauthorized", "Authentication required", 401, "Sign in or send a bearer token.", null);
      case 403 -> new Problem("forbidden", "Forbidden", 403, "You are not allowed to do this.", null);
      case 404 -> new Problem("not-found", "Not found", 404, "There is nothing at " + method + " " + path + ".", null);
      case 405 -> new Problem("method-not-allowed", "Method not allowed", 405,
          method + " is not allowed on " + path + ".", null);
      case 413 -> new Problem("payload-too-large", "Payload too large", 413,
          "The request body is larger than the limit of " + bodyLimit + " bytes.", null);
      case 414 -> new Problem("uri-too-long", "URI too long", 414,
          "The request line is longer than 4,096 bytes; send long values in a JSON body.", null);
      case 415 -> new Problem("unsupported-media-type", "Unsupported media type", 415,
          "Send the request body as application/json.", null);
      case 431 -> new Problem("header-fields-too-large", "Request header fields too large", 431,
          "The request headers are larger than 8 KiB together.", null);
      case 503 -> new Problem("unavailable", "Service unavailable", 503,
          "The gateway is not ready or is shutting down; retry shortly.", null);
      default -> status >= 500
          ? new Problem("internal-error", "Internal error", 500,
              "Something went wrong on our side. Quote the request id when you report it.", null)
          : new Problem("http-" + status, "HTTP " + status, status, "The request failed with status " + status + ".", null);
    };
  }

  private static Problem validationProblem(ValidatorException e) {
    return switch (e.type()) {
      case UNSUPPORTED_VALUE_FORMAT -> new Problem("unsupported-media-type", "Unsupported media type", 415,
          e.getMessage(), null);
      case MISSING_OPERATION, MISSING_RESPONSE -> ofStatus(500, HttpMethod.GET, "", 0);
      default -> new Problem("invalid-request", "Invalid request", 400, e.getMessage(), null);
    };
  }

  /**
   * One entry per offending location: the validator also reports every enclosing schema ("a
   * subschema had errors"), which says nothing a client can act on, so parents of a reported
   * location are dropped and each location keeps its most specific message.
   */
  private static JsonObject fieldErrors(SchemaValidationException e) {
    OutputUnit output = e.getOutputUnit();
    Map<String, String> byPointer = new LinkedHashMap<>();
    if (output != null && output.getErrors() != null) {
      output.getErrors().forEach(unit -> byPointer.put(pointer(unit.getInstanceLocation()), unit.getError()));
    }
    if (byPointer.isEmpty() && output != null) {
      byPointer.put(pointer(output.getInstanceLocation()), output.getError());
    }
    JsonArray errors = new JsonArray();
    byPointer.forEach((pointer, detail) -> {
      boolean parent = byPointer.keySet().stream().anyMatch(other -> other.startsWith(pointer + "/"));
      if (!parent) {
        errors.add(new JsonObject().put("pointer", pointer).put("detail", detail));
      }
    });
    return new JsonObject().put("errors", errors);
  }

  private static String pointer(String instanceLocation) {
    String location = nullToEmpty(instanceLocation);
    return location.startsWith("#") ? location : "#" + location;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
