package io.gpurental.gateway.pricing;

import io.gpurental.gateway.config.PricingConfig;
import io.gpurental.gateway.platform.Money;
import io.gpurental.gateway.platform.errors.Gone;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.IntFunction;

/**
 * Issues and finds quotes. They live in a cluster-wide map (any node can honour them) for their
 * validity plus a grace period, so an expired quote answers 410 rather than 404 for a while.
 */
public final class Quotes {
  private static final Duration GRACE = Duration.ofMinutes(30);
  private final Vertx vertx;
  private final PricingConfig config;
  private final CurrentTerms terms;
  private final QuoteIds ids;
  private final IntFunction<String> cancellationPolicy;
  private final String readyGuarantee;

  /**
   * {@code cancellationPolicy}: the policy in words for a cancellation fee in bps; {@code readyGuarantee}:
   * the guarantee in words; both part of every quote.
   */
  public Quotes(Vertx vertx, PricingConfig config, CurrentTerms terms, IntFunction<String> cancellationPolicy,
      String readyGuarantee) {
    this.vertx = vertx;
    this.cancellationPolicy = cancellationPolicy;
    this.readyGuarantee = readyGuarantee;
    this.config = config;
    this.terms = terms;
    this.ids = new QuoteIds(config.quoteSigningKey());
  }

  /** The terms of sale in force (what a quote issued now is priced with). */
  public CurrentTerms terms() {
    return terms;
  }

  /**
   * Prices the window at the given rate with the terms in force and guarantees it for the
   * configured time; the quote keeps those terms (its items and its cancellation fee).
   */
  public Future<Quote> issue(String offerId, long ratePerGpuHour, String currency, int gpuCount, Instant start,
      int hours, Quote.Image image) {
    return terms.get().compose(current -> {
      PriceBreakdown price = new PriceCalculator(current).price(ratePerGpuHour, currency, gpuCount, hours);
      QuoteIds.QuoteId id = ids.issue(Instant.now().plus(config.quoteTtl()).truncatedTo(ChronoUnit.SECONDS));
      int feeBps = current.cancellationFeeBps();
      Quote quote = new Quote(id.value(), offerId, gpuCount, start, hours, new Money(ratePerGpuHour, currency),
          price.items(), price.total(), id.expiresAt(), cancellationPolicy.apply(feeBps), feeBps, readyGuarantee, image);
      return map().compose(map -> map.put(id.random(), quote.toJson(), config.quoteTtl().plus(GRACE).toMillis()))
          .map(quote);
    });
  }

  /** The quote, still valid; 404 for unknown or forged ids, 410 once expired. */
  public Future<Quote> find(String id) {
    QuoteIds.QuoteId verified = ids.verify(id).orElse(null);
    if (verified == null) {
      return Future.failedFuture(new NotFound("No quote " + id + "."));
    }
    if (verified.expiresAt().isBefore(Instant.now())) {
      return Future.failedFuture(expired(verified));
    }
    return map().compose(map -> map.get(verified.random())).map(json -> {
      if (json == null) {
        throw new NotFound("No quote " + id + ".");
      }
      return Quote.fromJson(json);
    });
  }

  private static Gone expired(QuoteIds.QuoteId id) {
    return new Gone("Quote " + id.value() + " expired at " + id.expiresAt() + "; ask for a new one.");
  }

  private Future<AsyncMap<String, JsonObject>> map() {
    return vertx.sharedData().getAsyncMap("gateway.quotes");
  }
}
