package io.gpurental.gateway.catalog;

import io.gpurental.gateway.platform.errors.Invalid;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * A search's {@code cursor}, opaque to clients (base64url): {@code k:<sort>:<price>:<vram>:<id>},
 * the key of the last offer of a page paged in SQL ({@link OfferPages}), or {@code o:<offset>}, a
 * position in a search sorted in Java (availability, workload fit). An offset cursor is accepted
 * for every sort (it reads the whole search, as before keyset paging), a key cursor only for the
 * sort that made it, a step cursor only for a workload search sorted by price.
 */
record SearchCursor(Kind kind, int offset, String sort, OfferPages.Key key) {
  /**
   * None (the first page), a position in a search sorted in Java, the key of the last offer shown,
   * or a position in a workload search walked in order ({@code w:<offset>}, {@code CatalogQueries}).
   */
  enum Kind { NONE, OFFSET, KEY, STEP }

  static final SearchCursor FIRST = new SearchCursor(Kind.NONE, 0, null, null);

  static SearchCursor after(String sort, OfferPages.Key key) {
    return new SearchCursor(Kind.KEY, 0, sort, key);
  }

  static SearchCursor at(int offset) {
    return new SearchCursor(Kind.OFFSET, offset, null, null);
  }

  static SearchCursor step(int offset) {
    return new SearchCursor(Kind.STEP, offset, null, null);
  }

  String encode() {
    String text = kind == Kind.STEP ? "w:" + offset : key == null ? "o:" + offset
        : "k:" + sort + ":" + key.price() + ":" + key.vram() + ":" + key.id();
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static SearchCursor parse(String cursor) {
    if (cursor == null) {
      return FIRST;
    }
    try {
      String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (decoded.startsWith("o:")) {
        return at(Math.max(0, Integer.parseInt(decoded.substring(2))));
      }
      if (decoded.startsWith("w:")) {
        return step(Math.max(0, Integer.parseInt(decoded.substring(2))));
      }
      if (decoded.startsWith("k:")) {
        String[] parts = decoded.split(":", 5);
        if (parts.length == 5 && OfferPages.pages(parts[1]) && !parts[4].isEmpty()) {
          return after(parts[1], new OfferPages.Key(Long.parseLong(parts[2]), Integer.parseInt(parts[3]), parts[4]));
        }
      }
    } catch (IllegalArgumentException e) {
      // falls through to the error below (NumberFormatException is one)
    }
    throw invalid("use the next_cursor of the previous page");
  }

  static Invalid invalid(String detail) {
    return new Invalid("cursor is not one this API returned", List.of(new Invalid.FieldError("#/cursor", detail)));
  }
}
