package io.gpurental.gateway.platform;

import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.ext.web.RoutingContext;
import java.math.BigDecimal;
import java.util.List;

/**
 * Whole numbers from the query string, in every form the contract's {@code integer} admits
 * ({@code 10}, {@code 1e1}, {@code 10.0}); the contract has checked their range already.
 */
public final class QueryNumbers {
  private QueryNumbers() {}

  /** The parameter's value, or null when it is absent or empty. */
  public static Long wholeNumber(RoutingContext ctx, String name) {
    return wholeNumber(ctx.request().getParam(name), name);
  }

  /** {@code raw} (the value of parameter {@code name}) as a whole number, or null when absent or empty. */
  public static Long wholeNumber(String raw, String name) {
    if (raw == null || raw.isBlank()) {
      return null;
    }
    try {
      return new BigDecimal(raw.trim()).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      throw new Invalid(name + " must be a whole number in range",
          List.of(new Invalid.FieldError("#/" + name, "not a whole number in range")));
    }
  }

  /** A page size: the parameter's value, else {@code defaultLimit}. */
  public static int limit(RoutingContext ctx, int defaultLimit) {
    Long limit = wholeNumber(ctx, "limit");
    return limit == null ? defaultLimit : Math.toIntExact(limit);
  }
}
