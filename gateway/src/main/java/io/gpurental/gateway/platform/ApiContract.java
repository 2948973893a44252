package io.gpurental.gateway.platform;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.OpenAPIContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;

/**
 * The API contract ({@code openapi.yaml}), loaded once per node. Its server URL is set to this
 * gateway's public URL, so the document served to clients and the docs page point at the right host.
 */
public record ApiContract(OpenAPIContract contract, Buffer yaml) {
  public static final String BASE_PATH = "/api/v1";
  private static final String RESOURCE = "openapi.yaml";
  private static final ObjectMapper YAML = new ObjectMapper(
      new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

  public static Future<ApiContract> load(Vertx vertx, URI publicUrl) {
    return vertx.fileSystem().readFile(RESOURCE)
        .map(bytes -> withServer(parse(bytes), publicUrl))
        .compose(document -> OpenAPIContract.from(vertx, requestSide(document))
            .map(contract -> new ApiContract(contract, render(document))));
  }

  /**
   * The part of the document Vert.x validates requests against. vertx-openapi 5.0 refuses
   * response media types other than JSON and plain text (e.g. application/problem+json), and
   * responses are not validated at runtime anyway, so response bodies are left out of its copy.
   */
  static JsonObject requestSide(JsonObject document) {
    JsonObject copy = document.copy();
    JsonObject paths = copy.getJsonObject("paths", new JsonObject());
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        Object operation = item.getValue(method);
        if (operation instanceof JsonObject op && op.containsKey("responses")) {
          dropContent(op.getJsonObject("responses"));
        }
      }
    }
    JsonObject components = copy.getJsonObject("components", new JsonObject());
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
