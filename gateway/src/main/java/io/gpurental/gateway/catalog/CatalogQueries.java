package io.gpurental.gateway.catalog;

import io.gpurental.gateway.catalog.workloads.Fit;
import io.gpurental.gateway.catalog.workloads.Workloads;
import io.gpurental.gateway.config.PricingConfig;
import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.pricing.PriceBreakdown;
import io.gpurental.gateway.pricing.CurrentTerms;
import io.gpurental.gateway.pricing.PriceCalculator;
import io.gpurental.gateway.pricing.PriceTerms;
import io.gpurental.gateway.pricing.Window;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The public catalog: {@code GET /offers}, {@code GET /offers/{id}}, {@code GET /gpu-models}. The
 * queries take their parameters by name exactly as the query string spells them, so the REST
 * routes and the MCP tools (agents) search with the same filters, checks and answers.
 */
public final class CatalogQueries {
  private static final int DEFAULT_LIMIT = 20;
  private static final int TIMELINE_HOURS = 14 * 24;
  private final CatalogRepository repository;
  private final SearchCache cache;
  private final CurrentTerms terms;
  private final PricingConfig pricing;
  private final ReadyTimeRepository readyTimes;
  private final OfferPages pages;

  CatalogQueries(CatalogRepository repository, OfferPages pages, SearchCache cache, CurrentTerms terms,
      PricingConfig pricing, ReadyTimeRepository readyTimes) {
    this.repository = repository;
    this.pages = pages;
    this.readyTimes = readyTimes;
    this.cache = cache;
    this.terms = terms;
    this.pricing = pricing;
  }

  void bind(RouterBuilder api) {
    // the body as encoded once per cached page: a repeated search costs neither SQL nor encoding
    api.getRoute("listOffers").addHandler(ctx -> Future.succeededFuture()
        .compose(v -> body(parse(name -> ctx.request().getParam(name))))
        .onSuccess(body -> ctx.response().putHeader("content-type", "application/json").end(body))
        .onFailure(ctx::fail));
    api.getRoute("getOffer").addHandler(ctx -> offer(ctx.pathParam("offer_id"), name -> ctx.request().getParam(name))
        .onSuccess(ctx::json).onFailure(ctx::fail));
    api.getRoute("getCatalogSummary").addHandler(ctx -> readyTimes.fleet()
        .onSuccess(fleet -> ctx.json(new JsonObject().put("time_to_ready", ReadyTimeRepository.TimeToReady.json(fleet))))
        .onFailure(ctx::fail));
    api.getRoute("listWorkloads").addHandler(ctx -> ctx.json(WorkloadJson.catalog()));
    api.getRoute("listGpuModels").addHandler(ctx -> gpuModels().onSuccess(ctx::json).onFailure(ctx::fail));
  }

  /** Every GPU model the catalog knows: {@code {"data": [...]}}. */
  public Future<JsonObject> gpuModels() {
    return repository.gpuModels().map(models -> new JsonObject().put("data", models));
  }

  /** Bookable offers for the filters of {@code GET /offers} (a page: {@code data}, {@code next_cursor}). */
  public Future<JsonObject> search(Function<String, String> query) {
    return Future.succeededFuture().compose(v -> page(parse(query)));
  }

  /** The search's page, from the cache while it holds (the page as it was answered: do not change it). */
  private Future<JsonObject> page(Search search) {
    return cache.get("page|" + search.key(), () -> terms.get().compose(current -> search.paged()
        ? pagedSearch(search, current) : search.walked() ? walkedSearch(search, current) : fullSearch(search, current)));
  }

  private Future<Buffer> body(Search search) {
    return cache.get("body|" + search.key(), () -> page(search).map(JsonObject::toBuffer));
  }

  private Search parse(Function<String, String> query) {
    Window window = Window.parse(param(query, "start"), intParam(query, "hours"), pricing.maxHours(), "#/");
    int minGpus = orDefault(intParam(query, "min_gpus"), 1);
    int maxGpus = orDefault(intParam(query, "max_gpus"), Integer.MAX_VALUE);
    if (maxGpus < minGpus) {
      throw new Invalid("max_gpus is below min_gpus", List.of(new Invalid.FieldError("#/max_gpus", "must be ≥ min_gpus")));
    }
    boolean includeUnavailable = "true".equals(param(query, "include_unavailable"));
    String sort = orDefault(param(query, "sort"), "price");
    int limit = orDefault(intParam(query, "limit"), DEFAULT_LIMIT);
    SearchCursor cursor = SearchCursor.parse(param(query, "cursor"));
    Long maxPrice = longParam(query, "max_price_per_gpu_hour");
    Optional<Workloads.Workload> workload = WorkloadSearch.from(query);
    CatalogRepository.Filter filter = new CatalogRepository.Filter(param(query, "gpu_model"),
        intParam(query, "min_vram_gb"), param(query, "region"), param(query, "site"), param(query, "interconnect"), maxPrice);
    // the common sorts are paged in SQL; an offset cursor (issued before, or by a search sorted in
    // Java) goes on through the whole search as it did
    boolean first = cursor.kind() == SearchCursor.Kind.NONE;
    boolean paged = workload.isEmpty() && OfferPages.pages(sort) && (first || cursor.kind() == SearchCursor.Kind.KEY);
    // a workload search by price walks its offers in order, counting GPUs only until the page is full
    boolean walked = workload.isPresent() && "price".equals(sort) && (first || cursor.kind() == SearchCursor.Kind.STEP);
    if (cursor.kind() == SearchCursor.Kind.KEY && (!paged || !sort.equals(cursor.sort()))) {
      throw SearchCursor.invalid("this cursor continues a search sorted by " + cursor.sort() + ", not this one");
    }
    if (cursor.kind() == SearchCursor.Kind.STEP && !walked) {
      throw SearchCursor.invalid("this cursor continues a workload search sorted by price, not this one");
    }
    // the finished page, ready times included, is cached for the cache's short lifetime, under
    // everything that shapes it
    return new Search(filter, window, minGpus, maxGpus, includeUnavailable, sort, limit, cursor, workload, paged,
        walked, workloadParams(query));
  }

  /** What a search asks for, parsed. */
  private record Search(CatalogRepository.Filter filter, Window window, int minGpus, int maxGpus,
      boolean includeUnavailable, String sort, int limit, SearchCursor cursor, Optional<Workloads.Workload> workload,
      boolean paged, boolean walked, String workloadParams) {
    /** Everything that shapes the page (the workload by its parameters as given). */
    String key() {
      return filter + "|" + window + "|" + minGpus + "|" + maxGpus + "|" + includeUnavailable + "|" + sort + "|" + limit
          + "|" + cursor + "|" + workloadParams;
    }
  }

  /** One page from SQL ({@link OfferPages}): only the offers on it (and one more) are counted. */
  private Future<JsonObject> pagedSearch(Search s, PriceTerms current) {
    OfferPages.Request request = new OfferPages.Request(s.filter(), s.window().startUtc(), s.window().endUtc(), s.sort(),
        s.minGpus(), s.maxGpus(), s.includeUnavailable(), s.cursor().key(), s.limit() + 1);
    return pages.page(request).compose(rows -> {
      PriceCalculator calculator = new PriceCalculator(current);
      JsonArray page = new JsonArray();
      rows.stream().limit(s.limit()).forEach(keyed -> page.add(json(priced(calculator, keyed.row(), s.window(),
          s.minGpus()), s.window(), s.minGpus(), s.maxGpus(), Optional.empty())));
      String next = rows.size() > s.limit() ? SearchCursor.after(s.sort(), rows.get(s.limit() - 1).key()).encode() : null;
      return withReadyTimes(page).map(offers -> new JsonObject().put("data", offers).put("next_cursor", next));
    });
  }

  /**
   * A workload search by price, a page at a time: the filters' offers that could hold its VRAM,
   * fitted and ranked by the window's total from their precomputed figures without counting any
   * GPU (cached: the ranking does not depend on the window's start), then walked in that order, a
   * batch at a time, with their GPUs counted for the window ({@link OfferPages}) and fitted again
   * as counted, until the page and one more offer are found. The order is the full search's (the
   * same figures), so {@code w:<offset>} pages follow each other as {@code o:<offset>} ones do.
   */
  private Future<JsonObject> walkedSearch(Search s, PriceTerms current) {
    Workloads.Workload workload = s.workload().orElseThrow();
    CatalogRepository.VramNeed need = WorkloadSearch.vramNeed(workload);
    Window window = s.window();
    int offset = s.cursor().offset();
    String ranked = "ranked|" + s.filter() + "|" + need + "|" + s.workloadParams() + "|" + s.minGpus() + "|"
        + s.maxGpus() + "|" + window.hours();
    return cache.get("candidates|" + s.filter() + "|" + need, () -> candidates(s.filter(), need))
        .compose(narrowed -> cache.get(ranked, () -> Future.succeededFuture(rank(narrowed, workload, s, current)))
            .compose(order -> walk(s, current, order, 0, new ArrayList<>(), offset + s.limit() + 1,
                2 * (offset + s.limit() + 1)))
            .compose(found -> {
              JsonObject meta = new JsonObject();
              JsonArray page = new JsonArray();
              found.stream().skip(offset).limit(s.limit())
                  .forEach(p -> page.add(json(p, window, s.minGpus(), s.maxGpus(), s.workload())));
              String next = found.size() > offset + s.limit() ? SearchCursor.step(offset + s.limit()).encode() : null;
              return walkedNote(s, workload, narrowed).compose(note -> withReadyTimes(page)
                  .map(offers -> meta.put("workload", note).put("data", offers).put("next_cursor", next)));
            }));
  }

  private Future<List<OfferPages.Candidate>> candidates(CatalogRepository.Filter filter, CatalogRepository.VramNeed need) {
    return pages.candidates(new OfferPages.Request(filter, null, null, "price", 1, Integer.MAX_VALUE, true, null, 0,
        need, null));
  }

  /** The candidates that hold the workload within the GPU limits, by the window's total at their fitted count, then id. */
  private static List<String> rank(List<OfferPages.Candidate> candidates, Workloads.Workload workload, Search s,
      PriceTerms current) {
    PriceCalculator calculator = new PriceCalculator(current);
    record Ranked(String id, long total) {}
    return candidates.stream()
        .map(c -> Fit.smallest(workload.need(), c.hardware(), s.minGpus(), s.maxGpus())
            .map(fit -> new Ranked(c.id(), calculator.price(c.price(), c.currency(), fit.gpuCount(),
                s.window().hours()).total().amount()))
            .orElse(null))
        .filter(r -> r != null)
        .sorted(Comparator.comparingLong(Ranked::total).thenComparing(Ranked::id))
        .map(Ranked::id)
        .toList();
  }

  /**
   * Walks the ranked offers from {@code from} in batches: their GPUs counted for the window, fitted
   * and priced as counted, kept when bookable at the fitted count (or unavailable ones are asked
   * for), until {@code wanted} are found or none is left.
   */
  private Future<List<Priced>> walk(Search s, PriceTerms current, List<String> order, int from, List<Priced> found,
      int wanted, int batch) {
    if (found.size() >= wanted || from >= order.size()) {
      return Future.succeededFuture(found);
    }
    List<String> ids = order.subList(from, Math.min(order.size(), from + batch));
    OfferPages.Request request = new OfferPages.Request(s.filter(), s.window().startUtc(), s.window().endUtc(), "price",
        1, Integer.MAX_VALUE, s.includeUnavailable(), null, ids.size(), CatalogRepository.VramNeed.NONE, ids);
    return pages.page(request, OfferPages.ALL).compose(rows -> {
      Map<String, OfferRow> counted = new HashMap<>();
      rows.forEach(keyed -> counted.put(keyed.row().id(), keyed.row()));
      PriceCalculator calculator = new PriceCalculator(current);
      for (String id : ids) {
        OfferRow row = counted.get(id);
        Priced priced = row == null ? null : fitted(calculator, row, s.window(), s.workload().orElseThrow(), s.minGpus(),
            s.maxGpus());
        if (priced != null && (s.includeUnavailable() || row.bookable(priced.minGpus(s.minGpus()),
            priced.maxGpus(s.maxGpus())))) {
          found.add(priced);
        }
      }
      return walk(s, current, order, from + ids.size(), found, wanted, batch * 4);
    });
  }

  /** The walked search's note: as {@link #workloadNote}, on the candidates' hardware. */
  private Future<JsonObject> walkedNote(Search s, Workloads.Workload workload, List<OfferPages.Candidate> narrowed) {
    if (WorkloadSearch.unmetBy(workload, narrowed.stream().map(OfferPages.Candidate::hardware).toList()) == null) {
      return Future.succeededFuture(WorkloadJson.search(workload, null));
    }
    return cache.get("candidates|" + s.filter() + "|" + CatalogRepository.VramNeed.NONE,
            () -> candidates(s.filter(), CatalogRepository.VramNeed.NONE))
        .map(all -> WorkloadJson.search(workload,
            WorkloadSearch.unmetBy(workload, all.stream().map(OfferPages.Candidate::hardware).toList())));
  }

  /** Every offer of the search counted, priced and sorted in Java (availability, workload fit, offset cursors). */
  private Future<JsonObject> fullSearch(Search s, PriceTerms current) {
    Window window = s.window();
    int minGpus = s.minGpus();
    int maxGpus = s.maxGpus();
    Optional<Workloads.Workload> workload = s.workload();
    int offset = s.cursor().offset();
    // a workload search reads only the hosts whose GPUs could hold its VRAM (SQL narrows, the fit decides)
    CatalogRepository.VramNeed need = workload.map(WorkloadSearch::vramNeed).orElse(CatalogRepository.VramNeed.NONE);
    JsonObject meta = new JsonObject();
    return cache.get("rows|" + s.filter() + "|" + window + "|" + need,
            () -> repository.offers(s.filter(), window.startUtc(), window.endUtc(), need))
        .compose(rows -> workload.isEmpty() ? Future.succeededFuture(rows)
            : workloadNote(s, workload.get(), rows).map(note -> {
              meta.put("workload", note);
              return rows;
            }))
        .map(rows -> {
          PriceCalculator calculator = new PriceCalculator(current);
          // price and sort plain records; only the page returned is turned into JSON
          return rows.stream()
              .map(row -> workload.isPresent() ? fitted(calculator, row, window, workload.get(), minGpus, maxGpus)
                  : row.smallestCount(minGpus) > 0 && row.smallestCount(minGpus) <= maxGpus
                      ? priced(calculator, row, window, minGpus) : null)
              .filter(priced -> priced != null)
              .filter(p -> s.includeUnavailable() || p.row().bookable(p.minGpus(minGpus), p.maxGpus(maxGpus)))
              .sorted(order(s.sort(), workload.isPresent()))
              .toList();
        }).compose(offers -> {
      JsonArray page = new JsonArray();
      offers.stream().skip(offset).limit(s.limit()).forEach(p -> page.add(json(p, window, minGpus, maxGpus, workload)));
      String next = offset + s.limit() < offers.size() ? SearchCursor.at(offset + s.limit()).encode() : null;
      return withReadyTimes(page).map(offersWithTimes -> meta.put("data", offersWithTimes).put("next_cursor", next));
    });
  }

  /**
   * The search's workload note: whether some offer of the filters could hold it (booked or not),
   * else what it would need and the most any offer of the filters has, which takes every offer of
   * the filters, not only those its VRAM narrowed the search to.
   */
  private Future<JsonObject> workloadNote(Search s, Workloads.Workload workload, List<OfferRow> narrowed) {
    if (WorkloadSearch.unmet(workload, narrowed) == null) {
      return Future.succeededFuture(WorkloadJson.search(workload, null));
    }
    return cache.get("rows|" + s.filter() + "|" + s.window() + "|" + CatalogRepository.VramNeed.NONE,
            () -> repository.offers(s.filter(), s.window().startUtc(), s.window().endUtc()))
        .map(all -> WorkloadJson.search(workload, WorkloadSearch.unmet(workload, all)));
  }

  /** The workload's parameters as given (they change the page, not the rows). */
  private static String workloadParams(Function<String, String> query) {
    StringBuilder given = new StringBuilder(String.valueOf(query.apply("workload")));
    for (String name : Workloads.PARAMETER_NAMES) {
      given.append('&').append(name).append('=').append(query.apply(name));
    }
    return given.toString();
  }

  /** The offer priced at its smallest count that holds the workload, or null when none does. */
  private static Priced fitted(PriceCalculator calculator, OfferRow row, Window window, Workloads.Workload workload,
      int minGpus, int maxGpus) {
    Fit fit = WorkloadSearch.fit(workload, row, minGpus, maxGpus);
    return fit == null ? null : new Priced(row, fit.gpuCount(),
        calculator.price(row.pricePerGpuHour(), row.currency(), fit.gpuCount(), window.hours()), fit);
  }

  private static JsonObject json(Priced p, Window window, int minGpus, int maxGpus, Optional<Workloads.Workload> workload) {
    JsonObject offer = OfferJson.of(p.row(), window, p.gpuCount(), p.price(), p.minGpus(minGpus), p.maxGpus(maxGpus));
    workload.ifPresent(w -> offer.put("fit", WorkloadJson.fit(p.fit(), w.need(), null)));
    return offer;
  }

  /** One offer priced for the window of {@code start}/{@code hours}, with its hourly availability strip. */
  public Future<JsonObject> offer(String offerId, Function<String, String> query) {
    return Future.succeededFuture().compose(v -> offerNow(offerId, query));
  }

  private Future<JsonObject> offerNow(String offerId, Function<String, String> query) {
    Window window = Window.parse(param(query, "start"), intParam(query, "hours"), pricing.maxHours(), "#/");
    Instant timelineStart = Instant.now().truncatedTo(ChronoUnit.HOURS);
    Optional<Workloads.Workload> workload = WorkloadSearch.from(query);
    // the offer, its timeline and its price history depend only on the offer's id: asked for at
    // once (each on a connection of its own), not one after the other
    Future<Optional<OfferRow>> offerRow = repository.offer(offerId, window.startUtc(), window.endUtc());
    Future<List<Integer>> timeline = repository.freeByHour(offerId, timelineStart.atOffset(ZoneOffset.UTC),
        TIMELINE_HOURS);
    Future<JsonArray> priceHistory = repository.priceHistory(offerId);
    return terms.get().compose(current -> offerRow.compose(found -> {
      OfferRow row = found.orElseThrow(() -> new NotFound("No offer " + offerId + "."));
      PriceCalculator calculator = new PriceCalculator(current);
      // reached from a workload search: priced at the count that holds it, with its fit
      Priced fitted = workload.map(w -> fitted(calculator, row, window, w, 1, Integer.MAX_VALUE)).orElse(null);
      Priced priced = fitted != null ? fitted : priced(calculator, row, window, 1);
      JsonObject offer = OfferJson.of(row, window, priced.gpuCount(), priced.price(), 1, Integer.MAX_VALUE);
      workload.ifPresent(w -> offer.put("fit", WorkloadJson.fit(priced.fit(), w.need(),
          priced.fit() == null ? Fit.unmet(w.need(), List.of(WorkloadSearch.hardware(row))) : null)));
      return Future.all(withReadyTimes(new JsonArray().add(offer)), timeline, priceHistory).map(v -> offer
          .put("availability", new JsonObject()
              .put("start", timelineStart.toString())
              .put("step_minutes", 60)
              .put("free", new JsonArray("active".equals(row.hostStatus()) ? timeline.result()
                  : timeline.result().stream().map(f -> 0).toList())))
          .put("price_history", priceHistory.result()));
    }));
  }

  /**
   * Puts each offer's time-to-ready (its host's, 30 days; null without samples) on it, and on each
   * of its templates the same split into cached and uncached starts; not cached, it moves.
   */
  private Future<JsonArray> withReadyTimes(JsonArray offers) {
    String[] hosts = offers.stream().map(offer -> ((JsonObject) offer).getString("host_id")).toArray(String[]::new);
    Future<Map<String, ReadyTimeRepository.TimeToReady>> perHost = readyTimes.perHost(hosts);
    Future<Map<String, Map<String, ReadyTimeRepository.TemplateReady>>> perTemplates = readyTimes.perTemplate(hosts);
    return Future.all(perHost, perTemplates).map(both -> {
      Map<String, ReadyTimeRepository.TimeToReady> figures = perHost.result();
      Map<String, Map<String, ReadyTimeRepository.TemplateReady>> perTemplate = perTemplates.result();
      offers.forEach(o -> {
        JsonObject offer = (JsonObject) o;
        String host = offer.getString("host_id");
        offer.put("time_to_ready", ReadyTimeRepository.TimeToReady.json(Optional.ofNullable(figures.get(host))));
        Map<String, ReadyTimeRepository.TemplateReady> templates = perTemplate.getOrDefault(host, Map.of());
        JsonArray images = offer.getJsonArray("images", new JsonArray());
        for (int i = 0; i < images.size(); i++) {
          JsonObject image = images.getJsonObject(i);
          image.put("time_to_ready", templates.getOrDefault(image.getString("id"),
              ReadyTimeRepository.TemplateReady.NONE).toJson());
        }
      });
      return offers;
    });
  }

  /** An offer priced for the window at the GPU count the listing shows; {@code fit} only in a workload search. */
  private record Priced(OfferRow row, int gpuCount, PriceBreakdown price, Fit fit) {
    long allIn() {
      return price.allInPerGpuHour().amount();
    }

    /** A workload search shows one count per offer: the one that fits. */
    int minGpus(int searched) {
      return fit == null ? searched : gpuCount;
    }

    int maxGpus(int searched) {
      return fit == null ? searched : gpuCount;
    }
  }

  private static Priced priced(PriceCalculator calculator, OfferRow row, Window window, int minGpus) {
    int gpuCount = row.smallestCount(minGpus);
    return new Priced(row, gpuCount, calculator.price(row.pricePerGpuHour(), row.currency(), gpuCount, window.hours()),
        null);
  }

  /**
   * The order of a search, then the offer id. "price" and "price_per_vram_gb" compare the base rate
   * per GPU-hour (the all-in rate grows with it at a given GPU count; ordering by the base rate lets
   * SQL page the search, {@link OfferPages}, in the very same order). In a workload search counts
   * differ between offers, so "price" compares what the window costs in all.
   */
  private static Comparator<Priced> order(String sort, boolean workload) {
    Comparator<Priced> byId = Comparator.comparing(p -> p.row().id());
    Comparator<Priced> primary = switch (sort) {
      case "price_per_vram_gb" -> Comparator.comparingDouble(p -> (double) p.row().pricePerGpuHour()
          / Math.max(p.row().vramGb(), 1));
      case "vram" -> Comparator.comparingInt((Priced p) -> p.row().vramGb()).reversed();
      case "availability" -> Comparator.comparingInt((Priced p) -> p.row().gpusAvailable()).reversed();
      default -> workload ? Comparator.comparingLong((Priced p) -> p.price().total().amount())
          : Comparator.comparingLong((Priced p) -> p.row().pricePerGpuHour());
    };
    return primary.thenComparing(byId);
  }

  private static String param(Function<String, String> query, String name) {
    String value = query.apply(name);
    return value == null || value.isBlank() ? null : value;
  }

  private static Integer intParam(Function<String, String> query, String name) {
    Long value = longParam(query, name);
    return value == null ? null : Math.toIntExact(value);
  }

  private static Long longParam(Function<String, String> query, String name) {
    return QueryNumbers.wholeNumber(query.apply(name), name);
  }

  private static <T> T orDefault(T value, T fallback) {
    return value == null ? fallback : value;
  }
}
