package io.gpurental.gateway.platform;

import io.gpurental.gateway.testing.Contract;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one generated {@link Hostile} case into the bytes of an HTTP request, from the operation's
 * schemas in openapi.yaml: a well-formed example body and parameters, then the one mutation its
 * category names (a wrong type, a required field left out, a huge number, a NUL or odd Unicode, an
 * oversized body, a wrong Content-Type, a method the path does not declare, broken JSON).
 */
final class HostileRequests {
  /** What a case breaks. */
  enum Category { WRONG_TYPE, MISSING_FIELD, HUGE_NUMBER, ODD_STRING, OVERSIZED_BODY, WRONG_CONTENT_TYPE,
    ODD_METHOD, MALFORMED_JSON }

  /** One generated case: the operation, the category, and the choices the mutation draws on. */
  record Hostile(Contract.Operation operation, Category category, int pick, String odd, String number, int size,
      int variant) {
    @Override
    public String toString() {
      return category + " on " + operation + " pick=" + pick + " variant=" + variant + " size=" + size
          + " number=" + number + " odd=" + JsonArray.of(odd).encode();
    }
  }

  /** A request ready to send: {@code body} null for none, {@code contentType} null for no header. */
  record Built(String method, String path, String contentType, byte[] body) {}

  static final List<String> CONTENT_TYPES = List.of("text/plain", "application/xml", "multipart/form-data; boundary=x",
      "application/x-www-form-urlencoded", "application/json-patch+json", "application/jsonx", "*/*", "",
      "garbage", "application/json; charset=utf-16", "text/json", "application/octet-stream");
  static final List<String> METHODS = List.of("PATCH", "TRACE", "OPTIONS", "PROPFIND", "FOO", "HEAD", "PUT",
      "DELETE", "POST", "GET");
  private static final String RAW = "\u0001raw\u0001";
  private final Map<String, Set<String>> declaredMethods = new LinkedHashMap<>();
  private final Contract contract = Contract.get();

  HostileRequests(List<Contract.Operation> operations) {
    for (Contract.Operation operation : operations) {
      declaredMethods.computeIfAbsent(operation.template(), t -> new java.util.HashSet<>())
          .add(operation.method().toUpperCase());
    }
  }

  Built build(Hostile h) {
    Contract.Operation op = h.operation();
    Map<String, Object> schema = op.requestSchema() == null ? null : contract.resolve(op.requestSchema());
    String method = op.method().toUpperCase();
    String contentType = op.hasBody() ? "application/json" : null;
    Object body = schema == null ? (op.hasBody() ? new JsonObject() : null) : contract.example(schema, 0);
    String rawValue = null;
    byte[] rawBytes = null;
    Map<String, String> declared = parameters(op);
    Map<String, String> params = new LinkedHashMap<>();
    declared.forEach((key, value) -> {
      if (key.startsWith("path:") || key.startsWith("required:")) {
        params.put(key.replace("required:", "query:"), value);
      } else if (key.equals("query:wait_seconds")) {
        params.put(key, "0"); // a long poll would hold each request for its default 25 s
      }
    });
    List<Target> targets = schema == null ? List.of() : targets(schema, new ArrayList<>(), 0);
    boolean onParameter = !declared.isEmpty() && (targets.isEmpty() || h.pick() % 3 == 0);
    String paramKey = declared.isEmpty() ? "query:undeclared"
        : new ArrayList<>(declared.keySet()).get(h.pick() % declared.size()).replace("required:", "query:");
    switch (h.category()) {
      case WRONG_TYPE -> {
        if (onParameter) {
          params.put(paramKey, List.of("abc", "true", "[]", "{}", "-1.5", "").get(h.variant() % 6));
        } else if (targets.isEmpty() || h.variant() % 7 == 0) {
          contentType = "application/json";
          body = h.variant() % 11 == 0 ? RAW : List.of(new JsonArray(), "x", 1, true).get(h.variant() % 4);
          rawBytes = h.variant() % 11 == 0 ? "null".getBytes(StandardCharsets.UTF_8) : null;
        } else {
          Target target = targets.get(h.pick() % targets.size());
          body = set(body, target.path(), wrongType(target.schema(), h.variant()));
        }
      }
      case MISSING_FIELD -> {
        List<Target> required = targets.stream().filter(Target::required).toList();
        if (onParameter || required.isEmpty()) {
          params.remove(paramKey);
          body = op.hasBody() && h.variant() % 2 == 0 ? null : (body == null ? null : new JsonObject());
        } else {
          body = remove(body, required.get(h.pick() % required.size()).path());
        }
      }
      case HUGE_NUMBER -> {
        List<Target> numbers = targets.stream().filter(t -> isNumeric(t.schema())).toList();
        if (onParameter || targets.isEmpty()) {
          params.put(paramKey, h.number());
        } else {
          List<Target> from = numbers.isEmpty() ? targets : numbers;
          body = set(body, from.get(h.pick() % from.size()).path(), RAW);
          rawValue = h.number();
        }
      }
      case ODD_STRING -> {
        if (onParameter || targets.isEmpty()) {
          params.put(paramKey, h.odd());
        } else if (h.variant() % 5 == 0) {
          body = set(body, targets.get(h.pick() % targets.size()).path(), RAW);
          rawBytes = new byte[] {'"', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, 'x', '"'}; // not UTF-8
        } else {
          List<Target> strings = targets.stream().filter(t -> "string".equals(Contract.type(t.schema()))).toList();
          List<Target> from = strings.isEmpty() ? targets : strings;
          body = set(body, from.get(h.pick() % from.size()).path(), h.odd());
        }
      }
      case OVERSIZED_BODY -> {
        List<Target> strings = targets.stream().filter(t -> "string".equals(Contract.type(t.schema()))).toList();
        String padding = "x".repeat(h.size());
        body = strings.isEmpty() ? set(body == null ? new JsonObject() : body, List.of("padding"), padding)
            : set(body, strings.get(h.pick() % strings.size()).path(), padding);
        contentType = "application/json";
      }
      case WRONG_CONTENT_TYPE -> {
        contentType = CONTENT_TYPES.get(h.variant() % CONTENT_TYPES.size());
        body = body == null ? new JsonObject() : body;
      }
      case ODD_METHOD -> {
        Set<String> onPath = declaredMethods.get(op.template());
        List<String> undeclared = METHODS.stream().filter(m -> !onPath.contains(m)).toList();
        method = undeclared.get(h.variant() % undeclared.size());
      }
      case MALFORMED_JSON -> {
        contentType = "application/json";
        rawBytes = malformed(body == null ? "{}" : encode(body), h).getBytes(StandardCharsets.UTF_8);
        body = RAW;
      }
      default -> throw new IllegalStateException(h.category().name());
    }
    return new Built(method, path(op, params), contentType, bytes(body, rawValue, rawBytes));
  }

  private static String malformed(String valid, Hostile h) {
    int depth = 500 + h.size() % 100_000;
    return switch (h.variant() % 12) {
      case 0 -> valid.substring(0, Math.max(1, valid.length() - 1 - h.pick() % valid.length()));
      case 1 -> "{\"a\":}";
      case 2 -> "{'a': 1}";
      case 3 -> valid.replaceFirst("}$", ",}");
      case 4 -> "\uFEFF" + valid;
      case 5 -> "{\"a\": NaN, \"b\": Infinity}";
      case 6 -> "/* comment */" + valid;
      case 7 -> "[".repeat(depth) + "]".repeat(depth);
      case 8 -> "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
      case 9 -> valid + "garbage";
      case 10 -> "";
      default -> "\u0000" + valid;
    };
  }

  private static byte[] bytes(Object body, String rawValue, byte[] rawBytes) {
    if (body == null) {
      return null;
    }
    String text = body == RAW ? RAW : encode(body);
    String quoted = body == RAW ? RAW : JsonArray.of(RAW).encode().replaceAll("^\\[|]$", "");
    int at = text.indexOf(quoted);
    if (at < 0) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(text.substring(0, at).getBytes(StandardCharsets.UTF_8));
    out.writeBytes(rawBytes != null ? rawBytes : rawValue.getBytes(StandardCharsets.UTF_8));
    out.writeBytes(text.substring(at + quoted.length()).getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }

  private static String encode(Object body) {
    return body instanceof JsonObject o ? o.encode() : body instanceof JsonArray a ? a.encode()
        : body instanceof String s ? JsonArray.of(s).encode().replaceAll("^\\[|]$", "") : String.valueOf(body);
  }

  /** Path and query parameters with values their schemas accept, by "path:name", "query:name" or "required:name". */
  @SuppressWarnings("unchecked")
  private Map<String, String> parameters(Contract.Operation op) {
    Map<String, String> params = new LinkedHashMap<>();
    for (Map<String, Object> parameter : op.parameters()) {
      String in = (String) parameter.get("in");
      if (!"path".equals(in) && !"query".equals(in)) {
        continue;
      }
      Map<String, Object> schema = contract.resolve((Map<String, Object>) parameter.getOrDefault("schema", Map.of()));
      Object example = contract.example(schema, 0);
      String value = "path".equals(in) ? Contract.wellFormed(schema) : String.valueOf(example);
      boolean required = Boolean.TRUE.equals(parameter.get("required"));
      params.put(("query".equals(in) && required ? "required" : in) + ":" + parameter.get("name"), value);
    }
    return params;
  }

  private static String path(Contract.Operation op, Map<String, String> params) {
    String path = op.template();
    StringBuilder query = new StringBuilder();
    for (Map.Entry<String, String> param : params.entrySet()) {
      String name = param.getKey().substring(param.getKey().indexOf(':') + 1);
      String value = URLEncoder.encode(param.getValue(), StandardCharsets.UTF_8).replace("+", "%20");
      if (param.getKey().startsWith("path:")) {
        path = path.replace("{" + name + "}", value.isEmpty() ? "%20" : value);
      } else {
        query.append(query.length() == 0 ? "?" : "&").append(name).append('=').append(value);
      }
    }
    return path.replaceAll("\\{([a-z_]+)}", "$1_x1") + query;
  }

  /** A property of the body schema, by path, and whether its parent requires it. */
  record Target(List<String> path, Map<String, Object> schema, boolean required) {}

  @SuppressWarnings("unchecked")
  private List<Target> targets(Map<String, Object> schema, List<String> prefix, int depth) {
    List<Target> targets = new ArrayList<>();
    Map<String, Object> resolved = contract.merged(schema);
    Map<String, Object> properties = (Map<String, Object>) resolved.getOrDefault("properties", Map.of());
    List<String> required = (List<String>) resolved.getOrDefault("required", List.of());
    for (Map.Entry<String, Object> property : properties.entrySet()) {
      List<String> path = new ArrayList<>(prefix);
      path.add(property.getKey());
      Map<String, Object> child = contract.merged((Map<String, Object>) property.getValue());
      targets.add(new Target(path, child, required.contains(property.getKey())));
      if (depth < 2 && "object".equals(Contract.type(child))) {
        targets.addAll(targets(child, path, depth + 1));
      }
    }
    return targets;
  }

  private static boolean isNumeric(Map<String, Object> schema) {
    return "integer".equals(Contract.type(schema)) || "number".equals(Contract.type(schema));
  }

  private static Object wrongType(Map<String, Object> schema, int variant) {
    List<Object> wrong = switch (Contract.type(schema)) {
      case "string" -> List.of(12345, true, new JsonObject(), new JsonArray(), 1.5);
      case "integer", "number" -> List.of("12", true, new JsonObject(), new JsonArray(), "x", 1.5);
      case "boolean" -> List.of("true", 1, new JsonObject());
      case "object" -> List.of("x", 1, new JsonArray(), true);
      case "array" -> List.of("x", new JsonObject(), 1, JsonArray.of(JsonArray.of(new JsonObject())));
      default -> List.of("x", 1, new JsonObject());
    };
    return wrong.get(variant % wrong.size());
  }

  /** The body with the value at {@code path} replaced (objects on the way made as needed). */
  private static Object set(Object body, List<String> path, Object value) {
    JsonObject root = body instanceof JsonObject o ? o : new JsonObject();
    JsonObject at = root;
    for (String step : path.subList(0, path.size() - 1)) {
      if (!(at.getValue(step) instanceof JsonObject next)) {
        JsonObject made = new JsonObject();
        at.put(step, made);
        at = made;
      } else {
        at = next;
      }
    }
    at.put(path.get(path.size() - 1), value);
    return root;
  }

  private static Object remove(Object body, List<String> path) {
    if (!(body instanceof JsonObject root)) {
      return body;
    }
    JsonObject at = root;
    for (String step : path.subList(0, path.size() - 1)) {
      if (!(at.getValue(step) instanceof JsonObject next)) {
        return root;
      }
      at = next;
    }
    at.remove(path.get(path.size() - 1));
    return root;
  }
}
