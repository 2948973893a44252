package io.gpurental.gateway.catalog;

import io.gpurental.gateway.config.PricingConfig;
import io.gpurental.gateway.platform.Feature;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.pricing.QuotableOffer;
import io.gpurental.gateway.fleet.Images;
import io.gpurental.gateway.pricing.Quote;
import io.gpurental.gateway.pricing.Quotes;
import io.gpurental.gateway.pricing.QuotesApi;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;

/** The public catalog of bookable capacity, and quotes that guarantee its prices. */
public final class CatalogFeature implements Feature {
  private final CatalogQueries catalog;
  private final QuotesApi quotes;
  private final Offers offers;
  private final GpuModels gpuModels;
  private final Prices prices;
  private final OfferFigures figures;

  public CatalogFeature(Vertx vertx, Pool pool, Quotes quotes, PricingConfig pricing, Images images) {
    CatalogRepository repository = new CatalogRepository(pool);
    this.figures = new OfferFigures(vertx, pool);
    this.offers = new Offers(vertx, pool, figures);
    this.gpuModels = new GpuModels(vertx, pool);
    this.prices = new Prices(vertx, pool, pricing.currency(), figures);
    this.catalog = new CatalogQueries(repository, new OfferPages(pool), new SearchCache(vertx, pricing.searchCacheLifetime()), quotes.terms(), pricing,
        new ReadyTimeRepository(pool));
    this.quotes = new QuotesApi(quotes, (offerId, window) -> repository.offer(offerId, window.startUtc(), window.endUtc())
        .map(found -> found.map(row -> new QuotableOffer(refuseMaintenance(row).id(), row.gpuCounts(),
            row.gpusAvailable(), row.gpusTotal(), row.pricePerGpuHour(), row.currency(), unavailable(row)))), pricing,
        (image, ports, pointer) -> images.choose(image, ports, pointer).map(chosen -> chosen.map(c ->
            new Quote.Image(c.templateId(), c.ref(), c.ports()))));
  }

  /** The templates the offer's host cannot run (driver or CUDA below the template's minimum). */
  private static java.util.List<QuotableOffer.UnavailableImage> unavailable(OfferRow row) {
    return row.images().stream().filter(t -> !t.available()).map(t -> new QuotableOffer.UnavailableImage(t.id(),
        t.unavailableReason(), t.driver().minimum(), t.driver().host(), t.cuda().minimum(), t.cuda().host())).toList();
  }

  /** A window that planned maintenance keeps free is not quoted: 409 naming the maintenance window. */
  private static OfferRow refuseMaintenance(OfferRow row) {
    OfferRow.PlannedMaintenance window = row.maintenance();
    if (window != null) {
      throw new Conflict("Host " + row.hostName() + " is in planned maintenance " + window.id() + " from "
          + window.startsAt().toInstant() + " to " + window.endsAt().toInstant()
          + (window.drain() ? " and takes no new reservation until then" : "")
          + "; choose a window that does not overlap it.", new JsonObject().put("maintenance", new JsonObject()
              .put("id", window.id()).put("starts_at", window.startsAt().toInstant().toString())
              .put("ends_at", window.endsAt().toInstant().toString()).put("drain", window.drain())));
    }
    return row;
  }

  /** Quotes at current prices, for features that quote on the caller's behalf. */
  public QuotesApi quotes() {
    return quotes;
  }

  /** Searching and reading the catalog as the REST API does, for the MCP tools (agents). */
  public CatalogQueries queries() {
    return catalog;
  }

  /** The precomputed per-offer figures searches show, for the cluster job that refreshes them. */
  public OfferFigures figures() {
    return figures;
  }

  /** Opening and closing hosts' offers, for the operator. */
  public Offers offers() {
    return offers;
  }

  /** Setting and listing offers' prices and model-and-site defaults, for the operator. */
  public Prices prices() {
    return prices;
  }

  /** Mapping nvidia-smi names to GPU models, for the operator. */
  public GpuModels gpuModels() {
    return gpuModels;
  }

  @Override
  public void bind(RouterBuilder api) {
    catalog.bind(api);
    quotes.bind(api);
  }
}
