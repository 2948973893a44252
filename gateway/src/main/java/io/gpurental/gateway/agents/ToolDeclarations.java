package io.gpurental.gateway.agents;

import io.gpurental.gateway.auth.Scope;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP tools as declared in {@code mcp/tools.json}: name, title, description, annotations,
 * input and output schemas, and the token scope a call needs. Schemas there may name a shared
 * definition as {@code {"$ref": "#name"}}; it is inlined here, so clients see plain schemas.
 */
final class ToolDeclarations {
  static final String RESOURCE = "mcp/tools.json";
  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};

  /** One tool: what clients list, and the scope its calls need (none for the public catalog). */
  record Declared(McpSchema.Tool tool, Optional<Scope> scope) {}

  private ToolDeclarations() {}

  /** Reads the declarations (off the event loop: a classpath read). */
  static Future<Map<String, Declared>> load(Vertx vertx, McpJsonMapper mapper) {
    return vertx.fileSystem().readFile(RESOURCE).map(buffer -> parse(buffer.toJsonObject(), mapper));
  }

  static Map<String, Declared> parse(JsonObject document, McpJsonMapper mapper) {
    JsonObject defs = document.getJsonObject("defs");
    Map<String, Declared> tools = new LinkedHashMap<>();
    for (Object entry : document.getJsonArray("tools")) {
      JsonObject tool = (JsonObject) entry;
      JsonObject hints = tool.getJsonObject("annotations");
      McpSchema.ToolAnnotations annotations = new McpSchema.ToolAnnotations(tool.getString("title"),
          hints.getBoolean("readOnlyHint"), hints.getBoolean("destructiveHint"), hints.getBoolean("idempotentHint"),
          hints.getBoolean("openWorldHint"), null);
      McpSchema.Tool declared = McpSchema.Tool.builder(tool.getString("name"),
              map(mapper, (JsonObject) inline(tool.getJsonObject("inputSchema"), defs)))
          .title(tool.getString("title")).description(tool.getString("description")).annotations(annotations)
          .outputSchema(map(mapper, (JsonObject) inline(tool.getJsonObject("outputSchema"), defs)))
          .build();
      Optional<Scope> scope = Optional.ofNullable(tool.getString("scope")).map(id -> Scope.fromId(id)
          .orElseThrow(() -> new IllegalStateException(RESOURCE + ": unknown scope " + id)));
      tools.put(declared.name(), new Declared(declared, scope));
    }
    return tools;
  }

  private static Object inline(Object schema, JsonObject defs) {
    if (schema instanceof JsonObject object) {
      String ref = object.getString("$ref");
      if (ref != null && ref.startsWith("#")) {
        Object target = defs.getValue(ref.substring(1));
        if (target == null) {
          throw new IllegalStateException(RESOURCE + ": no definition " + ref);
        }
        return inline(target, defs);
      }
      JsonObject copy = new JsonObject();
      object.forEach(e -> copy.put(e.getKey(), inline(e.getValue(), defs)));
      return copy;
    }
    if (schema instanceof JsonArray array) {
      JsonArray copy = new JsonArray();
      array.forEach(item -> copy.add(inline(item, defs)));
      return copy;
    }
    return schema;
  }

  private static Map<String, Object> map(McpJsonMapper mapper, JsonObject json) {
    try {
      return mapper.readValue(json.encode(), MAP);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
