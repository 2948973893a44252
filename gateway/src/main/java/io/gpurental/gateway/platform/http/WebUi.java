package io.gpurental.gateway.platform.http;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * Serves the bundled web UI (built from {@code web-ui/} into {@code webroot/} of the jar): the
 * app's client-side routes get {@code index.html}, {@code /docs} the API reference, hashed assets
 * are cached for a year, pages are revalidated on every load.
 */
final class WebUi {
  private static final String WEBROOT = "webroot";
  private static final String APP_ROUTES = "^/(catalog|reservations|payments|account|operator|signin)(/.*)?$";
  private static final long ONE_YEAR_SECONDS = 365L * 24 * 3600;

  private WebUi() {}

  static void mount(Router router) {
    router.get("/").handler(ctx -> page(ctx, "index.html"));
    router.getWithRegex(APP_ROUTES).handler(ctx -> page(ctx, "index.html"));
    router.get("/docs").handler(ctx -> page(ctx, "docs.html"));
    // what people type or browsers ask for: the API's own offer path and the classic icon
    router.getWithRegex("^/offers/([A-Za-z0-9_]+)$").handler(ctx -> redirect(ctx, "/catalog/" + ctx.pathParam("param0")));
    router.get("/favicon.ico").handler(ctx -> redirect(ctx, "/favicon.svg"));
    router.get("/assets/*").handler(StaticHandler.create(WEBROOT)
        .setCachingEnabled(true)
        .setMaxAgeSeconds(ONE_YEAR_SECONDS)
        .setDirectoryListing(false));
    router.get().handler(StaticHandler.create(WEBROOT)
        .setCachingEnabled(false)
        .setDirectoryListing(false)
        .setIndexPage("index.html"));
  }

  private static void redirect(RoutingContext ctx, String location) {
    ctx.response().setStatusCode(301).putHeader("Location", location).end();
  }

  private static void page(RoutingContext ctx, String file) {
    ctx.response()
        .putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Cache-Control", "no-cache");
    ctx.response().sendFile(WEBROOT + "/" + file).onFailure(ctx::fail);
  }
}
