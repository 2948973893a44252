package io.gpurental.gateway.platform;

import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * Keyset pagination over rows ordered by (created_at DESC, id DESC). The cursor is opaque to
 * clients: the base64url of the last row's position.
 */
public final class Page {
  private Page() {}

  /** The position a cursor points after. */
  public record Position(OffsetDateTime createdAt, String id) {}

  public static Position decode(String cursor) {
    try {
      String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|", 2);
      if (parts[1].indexOf('\u0000') >= 0) { // PostgreSQL text cannot hold it
        throw new IllegalArgumentException("NUL in cursor");
      }
      return new Position(OffsetDateTime.parse(parts[0]), parts[1]);
    } catch (RuntimeException e) {
      throw new Invalid("cursor is not one this API returned", List.of(new Invalid.FieldError("#/cursor",
          "use the next_cursor of the previous page")));
    }
  }

  public static String encode(OffsetDateTime createdAt, String id) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString((createdAt + "|" + id).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The list response for rows fetched with {@code limit + 1}: the extra row only tells that
   * there is a next page.
   */
  public static <T> JsonObject of(List<T> rows, int limit, Function<T, JsonObject> toJson,
      Function<T, String> cursorOf) {
    List<T> page = rows.size() > limit ? rows.subList(0, limit) : rows;
    JsonArray data = new JsonArray();
    page.forEach(row -> data.add(toJson.apply(row)));
    String next = rows.size() > limit ? cursorOf.apply(page.get(page.size() - 1)) : null;
    return new JsonObject().put("data", data).put("next_cursor", next);
  }
}
