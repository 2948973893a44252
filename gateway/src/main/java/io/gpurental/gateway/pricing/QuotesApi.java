package io.gpurental.gateway.pricing;

import io.gpurental.gateway.config.PricingConfig;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/** {@code POST /quotes} and {@code GET /quotes/{id}}. */
public final class QuotesApi {
  private final Quotes quotes;
  private final BiFunction<String, Window, Future<Optional<QuotableOffer>>> offers;
  private final PricingConfig pricing;
  private final ImageChoice images;

  public QuotesApi(Quotes quotes, BiFunction<String, Window, Future<Optional<QuotableOffer>>> offers, PricingConfig pricing,
      ImageChoice images) {
    this.quotes = quotes;
    this.offers = offers;
    this.pricing = pricing;
    this.images = images;
  }

  public void bind(RouterBuilder api) {
    api.getRoute("createQuote").addHandler(this::create);
    api.getRoute("getQuote").addHandler(ctx -> quotes.find(ctx.pathParam("quote_id"))
        .onSuccess(quote -> ctx.json(quote.toJson())).onFailure(ctx::fail));
  }

  private void create(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    Window window = Window.parse(body.getString("start"), body.getInteger("hours"), pricing.maxHours(), "#/");
    quote(body.getString("offer_id"), body.getInteger("gpu_count"), window, body.getString("image"),
            ports(body.getJsonArray("ports")), "#/")
        .onSuccess(quote -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .end(quote.toJson().encode()))
        .onFailure(ctx::fail);
  }

  /**
   * A quote at the offer's current price for the window; 400 (naming the field under
   * {@code pointer}) for an unknown offer or a GPU count it does not sell, 409 when fewer GPUs
   * are free for the whole window.
   */
  public Future<Quote> quote(String offerId, int gpuCount, Window window, String pointer) {
    return quote(offerId, gpuCount, window, offers.apply(offerId, window), Optional.empty(), pointer);
  }

  /** The same, for an instance of {@code image} publishing {@code ports} (both may be null: the default). */
  public Future<Quote> quote(String offerId, int gpuCount, Window window, String image, List<Integer> ports,
      String pointer) {
    Future<Optional<Quote.Image>> chosen = images.choose(image, ports, pointer);
    // the offer is read while the image is chosen (two reads at once, not one after the other);
    // a wrong image still answers first, as it did
    Future<Optional<QuotableOffer>> offer = offers.apply(offerId, window);
    return chosen.compose(c -> quote(offerId, gpuCount, window, offer, c, pointer));
  }

  /**
   * The image and ports asked for (both may be null: the default template and its ports) for a
   * quote already made: 409 when the quote's host cannot run the template.
   */
  public Future<Optional<Quote.Image>> image(Quote quote, String image, List<Integer> ports, String pointer) {
    return images.choose(image, ports, pointer).compose(chosen -> chosen.isEmpty() || chosen.get().templateId() == null
        ? Future.succeededFuture(chosen)
        : offers.apply(quote.offerId(), new Window(quote.start(), quote.hours())).map(found -> {
          found.ifPresent(offer -> refuseUnavailable(offer, chosen.get()));
          return chosen;
        }));
  }

  /** 409 naming the template's minimum and the host's version when the host cannot run it. */
  private static void refuseUnavailable(QuotableOffer offer, Quote.Image image) {
    offer.unavailable(image.templateId()).ifPresent(u -> {
      throw new Conflict(u.reason() + " Pick another image or another offer.", new JsonObject().put("image",
          new JsonObject().put("id", u.templateId()).put("min_driver_version", u.minDriverVersion())
              .put("min_cuda_version", u.minCudaVersion()).put("host_driver_version", u.driverVersion())
              .put("host_cuda_version", u.cudaVersion())));
    });
  }

  /** A request's {@code ports} as numbers, null when absent. */
  public static List<Integer> ports(io.vertx.core.json.JsonArray ports) {
    return ports == null ? null : ports.stream().map(p -> p instanceof Number n ? n.intValue() : null).toList();
  }

  private Future<Quote> quote(String offerId, int gpuCount, Window window, Future<Optional<QuotableOffer>> read,
      Optional<Quote.Image> image, String pointer) {
    return read.compose(found -> {
      QuotableOffer offer = found.orElseThrow(() -> new Invalid("No offer " + offerId + ".",
          List.of(new Invalid.FieldError(pointer + "offer_id", "unknown offer"))));
      if (!offer.gpuCounts().contains(gpuCount)) {
        throw new Invalid("This offer sells " + offer.gpuCounts() + " GPUs at a time.",
            List.of(new Invalid.FieldError(pointer + "gpu_count", "must be one of " + offer.gpuCounts())));
      }
      image.ifPresent(chosen -> refuseUnavailable(offer, chosen));
      if (gpuCount > offer.gpusAvailable()) {
        throw new Conflict("Only " + offer.gpusAvailable() + " of " + offer.gpusTotal()
            + " GPUs are free for the whole window.", new JsonObject().put("gpus_available", offer.gpusAvailable()));
      }
      return quotes.issue(offer.id(), offer.pricePerGpuHour(), offer.currency(), gpuCount, window.start(), window.hours(),
          image.orElse(null));
    }).recover(failure -> Future.failedFuture(failure instanceof NotFound ? new Invalid(failure.getMessage()) : failure));
  }
}
