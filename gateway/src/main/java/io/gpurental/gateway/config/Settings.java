package io.gpurental.gateway.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Flattened settings ({@code "http.port" -> 8080}) with typed getters. Every getter failure is a
 * {@link ConfigException} that names the setting, so a bad value stops the start with one line.
 */
final class Settings {
  private final Map<String, Object> values;

  Settings(Map<String, Object> values) {
    this.values = values;
  }

  String string(String path) {
    Object value = values.get(path);
    return value == null ? "" : value.toString().trim();
  }

  String nonBlank(String path) {
    String value = string(path);
    if (value.isEmpty()) {
      throw new ConfigException(path, "must not be empty");
    }
    return value;
  }

  int intBetween(String path, int min, int max) {
    String raw = string(path);
    int value;
    try {
      value = Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new ConfigException(path, "must be a whole number (got '" + raw + "')");
    }
    if (value < min || value > max) {
      throw new ConfigException(path, "must be between " + min + " and " + max + " (got " + value + ")");
    }
    return value;
  }

  boolean bool(String path) {
    String raw = string(path).toLowerCase(Locale.ROOT);
    if (raw.equals("true") || raw.equals("false")) {
      return Boolean.parseBoolean(raw);
    }
    throw new ConfigException(path, "must be true or false (got '" + raw + "')");
  }

  int port(String path) {
    return intBetween(path, 1, 65535);
  }

  <E extends Enum<E>> E oneOf(String path, Class<E> type) {
    String raw = string(path);
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(raw)) {
        return constant;
      }
    }
    String allowed = java.util.Arrays.stream(type.getEnumConstants())
        .map(e -> e.name().toLowerCase(Locale.ROOT))
        .collect(Collectors.joining(", "));
    throw new ConfigException(path, "must be one of " + allowed + " (got '" + raw + "')");
  }

  /** An absolute URL with one of the given schemes and a host. */
  URI url(String path, String... schemes) {
    String raw = nonBlank(path);
    URI uri;
    try {
      uri = new URI(raw);
    } catch (URISyntaxException e) {
      throw new ConfigException(path, "is not a valid URL (" + e.getReason() + ")");
    }
    if (uri.getScheme() == null || !List.of(schemes).contains(uri.getScheme()) || uri.getHost() == null) {
      throw new ConfigException(path, "must be a URL like " + schemes[0] + "://host[:port]/... (got '" + raw + "')");
    }
    return uri;
  }

  @SuppressWarnings("unchecked")
  List<String> list(String path) {
    Object value = values.get(path);
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return ((List<Object>) list).stream().map(Object::toString).map(String::trim)
          .filter(s -> !s.isEmpty()).toList();
    }
    return java.util.Arrays.stream(value.toString().split(",")).map(String::trim)
        .filter(s -> !s.isEmpty()).toList();
  }
}
