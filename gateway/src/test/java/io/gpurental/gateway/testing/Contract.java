package io.gpurental.gateway.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.InputStream;
import java.io.UncheckedIOException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * openapi.yaml read as plain maps for the tests generated from it (the authorization matrix, mass
 * assignment, fuzzing): its operations with their security, parameters and request-body schema,
 * {@code $ref}s resolved on demand, and example values its schemas accept.
 */
public final class Contract {
  private static final Set<String> METHODS = Set.of("get", "put", "post", "patch", "delete");
  private static final Pattern PREFIX = Pattern.compile("^\\^([a-z]+_)\\[");
  private static volatile Contract instance;
  private final Map<String, Object> document;

  /**
   * One operation; {@code parameters} resolved, {@code requestSchema} the JSON body's schema or null,
   * {@code streams} when it answers an event stream (a 200 that does not end).
   */
  public record Operation(String method, String template, String id, List<Map<String, List<String>>> security,
      List<Map<String, Object>> parameters, Map<String, Object> requestSchema, boolean hasBody, boolean streams) {
    public boolean isPublic() {
      return security.stream().anyMatch(Map::isEmpty);
    }

    public boolean accepts(String scheme) {
      return security.stream().anyMatch(r -> r.containsKey(scheme));
    }

    @Override
    public String toString() {
      return method.toUpperCase() + " " + template + " (" + id + ")";
    }
  }

  private Contract(Map<String, Object> document) {
    this.document = document;
  }

  /** The contract on the test class path (read once per JVM). */
  @SuppressWarnings("unchecked")
  public static Contract get() {
    if (instance == null) {
      try (InputStream in = Contract.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
        instance = new Contract(new ObjectMapper(new YAMLFactory()).readValue(in, Map.class));
      } catch (java.io.IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return instance;
  }

  /** Every operation, in the contract's order. */
  @SuppressWarnings("unchecked")
  public List<Operation> operations() {
    List<Operation> operations = new ArrayList<>();
    Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) document.get("paths");
    paths.forEach((template, item) -> item.forEach((method, value) -> {
      if (!METHODS.contains(method)) {
        return;
      }
      Map<String, Object> operation = (Map<String, Object>) value;
      List<Map<String, Object>> parameters = new ArrayList<>();
      for (Object declared : (List<Object>) operation.getOrDefault("parameters", List.of())) {
        parameters.add(resolve((Map<String, Object>) declared));
      }
      Map<String, Object> body = operation.containsKey("requestBody")
          ? resolve((Map<String, Object>) operation.get("requestBody")) : null;
      Map<String, Object> schema = null;
      if (body != null) {
        Map<String, Object> content = (Map<String, Object>) body.getOrDefault("content", Map.of());
        Map<String, Object> json = (Map<String, Object>) content.get("application/json");
        schema = json == null ? null : (Map<String, Object>) json.get("schema");
      }
      boolean streams = String.valueOf(operation.get("responses")).contains("text/event-stream");
      operations.add(new Operation(method, template, (String) operation.get("operationId"),
          (List<Map<String, List<String>>>) operation.getOrDefault("security", List.of()), parameters, schema,
          body != null, streams));
    }));
    return operations;
  }

  /** The object a {@code $ref} names (followed until it is not one), or the object itself. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> resolve(Map<String, Object> maybeRef) {
    Map<String, Object> resolved = maybeRef;
    while (resolved != null && resolved.get("$ref") instanceof String ref) {
      Object node = document;
      for (String part : ref.substring(2).split("/")) {
        node = ((Map<String, Object>) node).get(part.replace("~1", "/").replace("~0", "~"));
      }
      resolved = (Map<String, Object>) node;
    }
    return resolved;
  }

  /** A path value the parameter's schema accepts (its first enum value, or its id prefix plus "x1"). */
  @SuppressWarnings("unchecked")
  public static String wellFormed(Map<String, Object> schema) {
    if (schema.containsKey("enum")) {
      return String.valueOf(((List<Object>) schema.get("enum")).get(0));
    }
    Matcher prefix = PREFIX.matcher(String.valueOf(schema.getOrDefault("pattern", "")));
    return (prefix.find() ? prefix.group(1) : "") + "x1";
  }

  /** A value the schema accepts (as far as a generator without the service's rules can tell). */
  @SuppressWarnings("unchecked")
  public Object example(Map<String, Object> schema, int depth) {
    Map<String, Object> s = merged(schema);
    if (s.containsKey("const")) {
      return s.get("const");
    }
    if (s.containsKey("enum")) {
      return ((List<Object>) s.get("enum")).get(0);
    }
    if (s.containsKey("default")) {
      return s.get("default") instanceof Map<?, ?> m ? new JsonObject((Map<String, Object>) m) : s.get("default");
    }
    switch (type(s)) {
      case "object" -> {
        JsonObject object = new JsonObject();
        Map<String, Object> properties = (Map<String, Object>) s.getOrDefault("properties", Map.of());
        for (String name : (List<String>) s.getOrDefault("required", List.of())) {
          Object child = properties.get(name);
          object.put(name, depth > 4 || child == null ? "x" : example((Map<String, Object>) child, depth + 1));
        }
        return object;
      }
      case "array" -> {
        JsonArray array = new JsonArray();
        if (((Number) s.getOrDefault("minItems", 0)).intValue() > 0 && s.get("items") instanceof Map<?, ?> items) {
          array.add(example((Map<String, Object>) items, depth + 1));
        }
        return array;
      }
      case "integer", "number" -> {
        return s.get("minimum") instanceof Number min ? min : 1;
      }
      case "boolean" -> {
        return true;
      }
      case "null" -> {
        return null;
      }
      default -> {
        if ("date-time".equals(s.get("format"))) {
          return "2030-01-01T10:00:00Z";
        }
        String value = wellFormed(s);
        int min = ((Number) s.getOrDefault("minLength", 0)).intValue();
        return value.length() >= min ? value : value + "x".repeat(min - value.length());
      }
    }
  }

  /** The schema with {@code $ref} resolved and the first branch of oneOf/anyOf or all of allOf merged in. */
  @SuppressWarnings("unchecked")
  public Map<String, Object> merged(Map<String, Object> schema) {
    Map<String, Object> s = new LinkedHashMap<>(resolve(schema));
    for (String choice : List.of("oneOf", "anyOf")) {
      if (s.get(choice) instanceof List<?> branches && !branches.isEmpty()) {
        Map<String, Object> first = merged((Map<String, Object>) branches.get(0));
        s.remove(choice);
        first.forEach(s::putIfAbsent);
      }
    }
    if (s.get("allOf") instanceof List<?> parts) {
      s.remove("allOf");
      for (Object part : parts) {
        Map<String, Object> p = merged((Map<String, Object>) part);
        p.forEach((key, value) -> {
          if (value instanceof Map<?, ?> m && s.get(key) instanceof Map<?, ?> mine) {
            Map<String, Object> both = new LinkedHashMap<>((Map<String, Object>) mine);
            both.putAll((Map<String, Object>) m);
            s.put(key, both);
          } else if (value instanceof List<?> l && s.get(key) instanceof List<?> mine) {
            List<Object> both = new ArrayList<>(mine);
            both.addAll(l);
            s.put(key, both);
          } else {
            s.putIfAbsent(key, value);
          }
        });
      }
    }
    return s;
  }

  /** The schema's JSON type (the first that is not null when it lists several). */
  public static String type(Map<String, Object> schema) {
    Object type = schema.get("type");
    if (type instanceof List<?> types) {
      return types.stream().map(String::valueOf).filter(t -> !"null".equals(t)).findFirst().orElse("null");
    }
    if (type == null) {
      return schema.containsKey("properties") ? "object" : "string";
    }
    return (String) type;
  }
}
