package io.gpurental.gateway.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.validation.ResponseValidator;
import io.vertx.openapi.validation.ValidatableResponse;
import io.vertx.openapi.validation.ValidatorException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks every JSON answer of {@code /api/v1} a test receives through {@link TestGateway#send}
 * against openapi.yaml with the vertx-openapi response validator: the status must be declared (or
 * a {@code default} apply) and the body must match its schema. vertx-openapi 5.0 knows only JSON
 * media types, so {@code application/problem+json} is checked as JSON and the few non-JSON answers
 * (the event stream, the YAML document, CSV) are left out. Violations are collected per test JVM
 * ({@link #violations()}) and each one fails its request, so the contract cannot drift from the
 * code; {@code -Dgpr.responses=record} only records them (to survey a large change).
 */
public final class ResponseContract {
  private static final String BASE = "/api/v1";
  private static final List<String> VIOLATIONS = Collections.synchronizedList(new ArrayList<>());
  private static volatile ResponseContract instance;
  private final OpenAPIContract contract;
  private final ResponseValidator validator;

  private ResponseContract(Vertx vertx, OpenAPIContract contract) {
    this.contract = contract;
    this.validator = ResponseValidator.create(vertx, contract);
  }

  /** Every violation seen in this JVM so far, as "METHOD path status: what". */
  public static List<String> violations() {
    synchronized (VIOLATIONS) {
      return List.copyOf(VIOLATIONS);
    }
  }

  /** Checks one answer; a violation is recorded (and thrown when strict). */
  static void check(HttpRequest request, HttpResponse<String> response) {
    URI uri = request.uri();
    if (!uri.getPath().startsWith(BASE + "/")) {
      return;
    }
    String contentType = response.headers().firstValue("Content-Type").orElse("");
    boolean json = contentType.startsWith("application/json") || contentType.startsWith("application/problem+json");
    if (!json && !response.body().isEmpty()) {
      return;
    }
    Optional<String> violation = violation(request.method(), uri.getPath(), response.statusCode(),
        json ? response.body() : null);
    violation.ifPresent(what -> {
      String line = request.method() + " " + uri.getPath() + " " + response.statusCode() + ": " + what;
      VIOLATIONS.add(line);
      if (!"record".equals(System.getProperty("gpr.responses"))) {
        throw new AssertionError("the answer does not match openapi.yaml: " + line + "\n" + response.body());
      }
    });
  }

  /** What is wrong with this answer (a JSON body, or null for none) of {@code method path}, if anything. */
  static Optional<String> violation(String method, String path, int status, String jsonBody) {
    return get().check(HttpMethod.valueOf(method), path, status, jsonBody);
  }

  private Optional<String> check(HttpMethod method, String path, int status, String jsonBody) {
    Operation operation = contract.findOperation(path, method);
    if (operation == null) {
      return Optional.empty(); // an unknown route: the router answers 404/405 before any operation
    }
    ValidatableResponse answer = jsonBody == null
        ? ValidatableResponse.create(status)
        : ValidatableResponse.create(status, Buffer.buffer(jsonBody), "application/json");
    try {
      TestGateway.await(validator.validate(answer, operation.getOperationId()));
      return Optional.empty();
    } catch (ValidatorException e) {
      return Optional.of(operation.getOperationId() + ": " + e.getMessage());
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() instanceof ValidatorException ? e.getCause() : e;
      return Optional.of(operation.getOperationId() + ": " + cause.getMessage());
    }
  }

  private static ResponseContract get() {
    ResponseContract loaded = instance;
    if (loaded == null) {
      synchronized (ResponseContract.class) {
        if (instance == null) {
          instance = load();
          Runtime.getRuntime().addShutdownHook(new Thread(ResponseContract::report));
        }
        loaded = instance;
      }
    }
    return loaded;
  }

  /** Writes this JVM's violations to target/response-contract.txt (appended), for a look after a run. */
  private static void report() {
    List<String> seen = violations();
    String text = "response contract: " + seen.size() + " violation(s)\n" + String.join("\n", seen) + "\n";
    try {
      java.nio.file.Files.writeString(java.nio.file.Path.of("target", "response-contract.txt"), text,
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    } catch (java.io.IOException e) {
      System.err.print(text);
    }
  }

  @SuppressWarnings("unchecked")
  private static ResponseContract load() {
    try (InputStream in = ResponseContract.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
      JsonObject document = new JsonObject(new ObjectMapper(new YAMLFactory()).readValue(in, Map.class));
      JsonObject paths = document.getJsonObject("paths");
      for (String path : paths.fieldNames()) {
        JsonObject item = paths.getJsonObject(path);
        for (String method : item.fieldNames()) {
          if (item.getValue(method) instanceof JsonObject operation) {
            operation.remove("security");
            jsonOnly(operation.getJsonObject("responses", new JsonObject()));
          }
        }
      }
      document.remove("security");
      document.remove("webhooks");
      JsonObject components = document.getJsonObject("components");
      components.remove("securitySchemes");
      jsonOnly(components.getJsonObject("responses", new JsonObject()));
      Vertx vertx = Vertx.vertx();
      return new ResponseContract(vertx, TestGateway.await(OpenAPIContract.from(vertx, document)));
    } catch (Exception e) {
      throw new IllegalStateException("openapi.yaml could not be loaded for response checks", e);
    }
  }

  /** problem+json becomes JSON (the same schema); other media types are dropped. */
  private static void jsonOnly(JsonObject responses) {
    for (String status : responses.fieldNames()) {
      if (responses.getValue(status) instanceof JsonObject response && response.containsKey("content")) {
        JsonObject content = response.getJsonObject("content");
        JsonObject kept = new JsonObject();
        Object problem = content.getValue("application/problem+json");
        Object json = content.getValue("application/json");
        if (json != null || problem != null) {
          kept.put("application/json", json != null ? json : problem);
        }
        if (kept.isEmpty()) {
          response.remove("content");
        } else {
          response.put("content", kept);
        }
      }
    }
  }
}
