package io.gpurental.gateway.platform;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The API contract ({@code openapi.yaml}), loaded once per node. Its server URL is set to this
 * gateway's public URL, so the document served to clients and the docs page point at the right host.
 */
public record ApiContract(OpenAPIContract contract, Buffer yaml, Map<String, List<Map<String, List<String>>>> security) {
  public static final String BASE_PATH = "/api/v1";
  private static final String RESOURCE = "openapi.yaml";
  private static final ObjectMapper YAML = new ObjectMapper(
      new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

  public static Future<ApiContract> load(Vertx vertx, URI publicUrl) {
    // parsing, rendering and walking the large document is CPU work that blocked an event loop for
    // up to 7 s during a start on a busy machine: it runs on a worker
    record Prepared(JsonObject document, JsonObject requestSide, Buffer yaml,
        Map<String, List<Map<String, List<String>>>> security) {}
    return vertx.fileSystem().readFile(RESOURCE)
        .compose(bytes -> vertx.executeBlocking(() -> {
          JsonObject document = withServer(parse(bytes), publicUrl);
          return new Prepared(document, requestSide(document), render(document), securityByOperation(document));
        }, false))
        .compose(prepared -> OpenAPIContract.from(vertx, prepared.requestSide())
            .map(contract -> new ApiContract(contract, prepared.yaml(), prepared.security())));
  }

  /**
   * Each operation's {@code security} (alternatives, each scheme name to its scopes or roles);
   * an operation that declares none maps to an empty list, which admits no one.
   */
  public List<Map<String, List<String>>> securityOf(String operationId) {
    return security.getOrDefault(operationId, List.of());
  }

  private static Map<String, List<Map<String, List<String>>>> securityByOperation(JsonObject document) {
    Map<String, List<Map<String, List<String>>>> byOperation = new HashMap<>();
    forEachOperation(document, operation -> {
      List<Map<String, List<String>>> alternatives = new ArrayList<>();
      JsonArray declared = operation.getJsonArray("security", new JsonArray());
      for (int i = 0; i < declared.size(); i++) {
        Map<String, List<String>> requirement = new LinkedHashMap<>();
        JsonObject entry = declared.getJsonObject(i);
        entry.fieldNames().forEach(scheme -> requirement.put(scheme,
            entry.getJsonArray(scheme).stream().map(Object::toString).toList()));
        alternatives.add(requirement);
      }
      byOperation.put(operation.getString("operationId"), List.copyOf(alternatives));
    });
    return Map.copyOf(byOperation);
  }

  private static void forEachOperation(JsonObject document, java.util.function.Consumer<JsonObject> action) {
    JsonObject paths = document.getJsonObject("paths", new JsonObject());
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        if (item.getValue(method) instanceof JsonObject operation && operation.containsKey("operationId")) {
          action.accept(operation);
        }
      }
    }
  }

  /**
   * The part of the document Vert.x validates requests against. vertx-openapi 5.0 refuses
   * response media types other than JSON and plain text (e.g. application/problem+json), and
   * responses are not validated at runtime anyway, so response bodies are left out of its copy.
   * Security is enforced by the gateway's own {@code AccessPolicy} (Vert.x's would insist on
   * one authentication handler chain per scheme), so it is left out too.
   */
  static JsonObject requestSide(JsonObject document) {
    JsonObject copy = document.copy();
    copy.remove("security");
    forEachOperation(copy, operation -> {
      operation.remove("security");
      dropContent(operation.getJsonObject("responses", new JsonObject()));
    });
    JsonObject components = copy.getJsonObject("components", new JsonObject());
    components.remove("securitySchemes");
    dropContent(components.getJsonObject("responses", new JsonObject()));
    return copy;
  }

  private static void dropContent(JsonObject responses) {
    for (String status : responses.fieldNames()) {
      if (responses.getValue(status) instanceof JsonObject response) {
        response.remove("content");
      }
    }
  }

  private static JsonObject parse(Buffer bytes) {
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> tree = YAML.readValue(bytes.getBytes(), Map.class);
      return new JsonObject(tree);
    } catch (IOException e) {
      throw new UncheckedIOException("openapi.yaml is not valid YAML", e);
    }
  }

  private static JsonObject withServer(JsonObject document, URI publicUrl) {
    String base = publicUrl.toString().replaceAll("/+$", "") + BASE_PATH;
    // plain collections, so the document can be written back as YAML
    return document.put("servers", java.util.List.of(Map.of("url", base)));
  }

  private static Buffer render(JsonObject document) {
    try {
      return Buffer.buffer(YAML.writeValueAsBytes(document.getMap()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
