package io.gpurental.gateway.sandbox.stripe;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Decodes Stripe's form encoding into JSON: {@code metadata[k]=v} becomes an object,
 * {@code line_items[0][quantity]=1} an array of objects, {@code expand[]=x} an array.
 */
final class FormDecoder {
  private static final int MAX_INDEX = 1_000;
  private FormDecoder() {}

  static JsonObject decode(String body) {
    JsonObject root = new JsonObject();
    if (body == null || body.isEmpty()) {
      return root;
    }
    for (String pair : body.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      put(root, path(key), 0, value);
    }
    return root;
  }

  private static String[] path(String key) {
    int bracket = key.indexOf('[');
    if (bracket < 0) {
      return new String[] {key};
    }
    String head = key.substring(0, bracket);
    String[] rest = key.substring(bracket + 1, key.length() - (key.endsWith("]") ? 1 : 0)).split("\\]\\[", -1);
    String[] all = new String[rest.length + 1];
    all[0] = head;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  private static void put(Object container, String[] path, int index, String value) {
    String segment = path[index];
    boolean last = index == path.length - 1;
    String next = last ? null : path[index + 1];
    Object child = last ? value : (next.isEmpty() || next.chars().allMatch(Character::isDigit)) ? new JsonArray() : new JsonObject();
    if (container instanceof JsonObject object) {
      if (last) {
        object.put(segment, value);
        return;
      }
      Object existing = object.getValue(segment);
      if (existing == null) {
        object.put(segment, child);
        existing = child;
      }
      put(existing, path, index + 1, value);
    } else if (container instanceof JsonArray array) {
      if (segment.isEmpty()) {
        if (last) {
          array.add(value);
        } else {
          array.add(child);
          put(child, path, index + 1, value);
        }
        return;
      }
      int position = Integer.parseInt(segment);
      if (position > MAX_INDEX) {
        throw new IllegalArgumentException("Array index " + position + " is too large (at most " + MAX_INDEX + ").");
      }
      while (array.size() <= position) {
        array.addNull();
      }
      if (last) {
        array.set(position, value);
        return;
      }
      Object existing = array.getValue(position);
      if (existing == null) {
        array.set(position, child);
        existing = child;
      }
      put(existing, path, index + 1, value);
    }
  }
}
