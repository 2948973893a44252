package io.gpurental.gateway.catalog;

import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The catalog's port for setting prices: an offer's own price, or the default for a GPU model at
 * a site, from now or from a later time. A change is a new row (history is kept), audited in the
 * same transaction. Which price applies is decided in SQL only ({@code offer_prices_view}); quotes
 * already given keep theirs.
 */
public final class Prices {
  /** How far in the past an {@code effective_at} may be (clock skew); it then counts as now. */
  static final Duration PAST_TOLERANCE = Duration.ofMinutes(1);
  static final Duration LONGEST_AHEAD = Duration.ofDays(366);
  static final long MAX_AMOUNT = 100_000_000;
  private final Vertx vertx;
  private final Pool pool;
  private final String currency;
  private final OfferFigures figures;

  Prices(Vertx vertx, Pool pool, String currency, OfferFigures figures) {
    this.vertx = vertx;
    this.pool = pool;
    this.currency = currency;
    this.figures = figures;
  }

  /** What an operator asked for: a price per GPU-hour, from {@code effectiveAt} (empty = now). */
  public record Change(Offers.Price price, Optional<Instant> effectiveAt, String actor) {}

  /** One stored price: for an offer, or the default of a GPU model at a site. */
  public record PriceRow(long id, String offerId, String gpuModel, String siteId, Offers.Price price, Instant effectiveFrom,
      String setBy, Instant setAt, boolean scheduled) {}

  /** An open offer and the price that applies to it now (empty when none does). */
  public record OfferPrice(String offerId, String hostName, String gpuModel, String siteId, String siteName,
      Optional<Offers.Price> applies, Instant appliesFrom, boolean ownPrice) {}

  /** The current and scheduled prices, and each open offer with the price that applies to it. */
  public record Listing(List<OfferPrice> offers, List<PriceRow> prices) {}

  /** Sets an offer's own price; 404 for an unknown offer. */
  public Future<PriceRow> setForOffer(String offerId, Change change) {
    return set(offerId, null, null, change, "price.offer.set", offerId);
  }

  /** Sets the default for a GPU model at a site; 404 for an unknown model or site. */
  public Future<PriceRow> setDefault(String gpuModel, String siteId, Change change) {
    return set(null, gpuModel, siteId, change, "price.default.set", gpuModel + "@" + siteId);
  }

  public Future<Listing> list() {
    return PriceRepository.openOffers(pool)
        .compose(offers -> PriceRepository.currentAndScheduled(pool).map(prices -> new Listing(offers, prices)));
  }

  private Future<PriceRow> set(String offerId, String gpuModel, String siteId, Change change,
      String action, String target) {
    try {
      validate(change);
    } catch (Invalid invalid) {
      return Future.failedFuture(invalid);
    }
    return pool.withTransaction(tx -> PriceRepository.currentOf(tx, offerId, gpuModel, siteId)
        .compose(before -> PriceRepository.insert(tx, offerId, gpuModel, siteId, change.price(), change.effectiveAt(),
                change.actor())
            .compose(after -> AuditLog.append(tx, change.actor(), action, target, before.map(Prices::json).orElse(null),
                json(after)).map(after))))
        .recover(failure -> Future.failedFuture(explain(failure, offerId, gpuModel, siteId)))
        // searches read a stale price row's view until the refresh has run; the cache drops at once
        .onSuccess(row -> figures.refreshPrices())
        .onSuccess(row -> CatalogChanges.publish(vertx, "price set"));
  }

  private void validate(Change change) {
    Offers.Price price = change.price();
    if (!currency.equals(price.currency().toLowerCase(Locale.ROOT))) {
      throw invalid("#/currency", "Prices are in " + currency.toUpperCase(Locale.ROOT) + ".", "must be " + currency);
    }
    if (price.amount() < 1 || price.amount() > MAX_AMOUNT) {
      throw invalid("#/amount", "The amount must be between 1 and " + MAX_AMOUNT + " minor units.", "out of range");
    }
    Instant now = Instant.now();
    change.effectiveAt().ifPresent(at -> {
      if (at.isBefore(now.minus(PAST_TOLERANCE))) {
        throw invalid("#/effective_at", "effective_at is in the past.", "must be now or later");
      }
      if (at.isAfter(now.plus(LONGEST_AHEAD))) {
        throw invalid("#/effective_at", "effective_at is more than a year ahead.", "must be within a year");
      }
    });
  }

  private static Throwable explain(Throwable failure, String offerId, String gpuModel, String siteId) {
    if (!(failure instanceof PgException pg)) {
      return failure;
    }
    String constraint = String.valueOf(pg.getConstraint());
    return switch (pg.getSqlState()) {
      case "23503" -> constraint.contains("offer") ? new NotFound("No offer " + offerId + ".")
          : constraint.contains("site") ? new NotFound("No site " + siteId + ".")
          : new NotFound("No GPU model " + gpuModel + ".");
      case "23505" -> new Conflict("A price already takes effect at that time; choose another time.");
      default -> failure;
    };
  }

  private static Invalid invalid(String pointer, String detail, String fieldDetail) {
    return new Invalid(detail, List.of(new Invalid.FieldError(pointer, fieldDetail)));
  }

  /** A price as the audit log keeps it. */
  static JsonObject json(PriceRow row) {
    return new JsonObject().put("amount", row.price().amount()).put("currency", row.price().currency())
        .put("effective_from", row.effectiveFrom().toString()).put("set_by", row.setBy());
  }
}
