package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.platform.ApiContract;
import io.gpurental.gateway.platform.Feature;
import io.vertx.core.Vertx;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.web.AllowForwardHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import io.vertx.ext.web.openapi.router.OpenAPIRoute;
import io.vertx.ext.web.openapi.router.RequestExtractor;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.ext.web.RoutingContext;
import io.vertx.openapi.validation.RequestValidator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** Builds a node's public HTTP router: edge handlers, health, the validated API, the web UI. */
final class GatewayRouter {
  private GatewayRouter() {}

  static Router create(Vertx vertx, HttpSetup setup) {
    int bodyLimit = setup.http().bodyLimitBytes();
    ProblemHandler problems = new ProblemHandler(bodyLimit);
    Router router = Router.router(vertx);
    if (setup.http().trustForwardedHeaders()) {
      // behind a proxy that sets X-Forwarded-*: client addresses (rate limits) come from it
      router.allowForward(AllowForwardHeaders.X_FORWARD);
    }
    router.route().handler(new RequestIds()).handler(new SecurityHeaders(setup.http().behindTls()));
    router.route().handler(new FormBodyMethods());
    router.route().handler(BodyHandler.create(false).setBodyLimit(bodyLimit));

    mountHealth(router, setup.liveness(), setup.readiness());

    setup.features().forEach(feature -> feature.mount(router));
    router.route(ApiContract.BASE_PATH + "/*").subRouter(apiRouter(vertx, setup));
    WebUi.mount(router);

    router.route().failureHandler(problems);
    router.errorHandler(404, problems);
    router.errorHandler(405, problems);
    router.errorHandler(500, problems);
    return router;
  }

  /** Health answers on the public port (for load balancers) and on the management port. */
  static void mountHealth(Router router, HealthChecks liveness, HealthChecks readiness) {
    router.get("/health/live").handler(HealthCheckHandler.createWithHealthChecks(liveness));
    router.get("/health/ready").handler(HealthCheckHandler.createWithHealthChecks(readiness));
  }

  private static Optional<Predicate<RoutingContext>> provenValid(HttpSetup setup, String operationId) {
    return setup.features().stream().map(feature -> feature.provenValid(operationId)).flatMap(Optional::stream)
        .findFirst();
  }

  private static Router apiRouter(Vertx vertx, HttpSetup setup) {
    // BodyHandler has read the body already; the validator must take it from the context
    RouterBuilder builder = RouterBuilder.create(vertx, setup.contract().contract(), RequestExtractor.withBodyHandler())
        .rootHandler(ctx -> {
          ctx.response().putHeader("Cache-Control", "no-store");
          ctx.next();
        })
        .rootHandler(new NulCharacters(setup.contract().contract()))
        .rootHandler(new JsonBodyGuard());
    Map<String, Integer> guards = new HashMap<>();
    for (OpenAPIRoute route : builder.getRoutes()) {
      String operationId = route.getOperation().getOperationId();
      route.addHandler(new UnknownQueryParameters(route.getOperation()));
      guards.merge(operationId, 1, Integer::sum);
      for (Feature feature : setup.features()) {
        feature.operationGuard(operationId).ifPresent(guard -> {
          route.addHandler(guard);
          guards.merge(operationId, 1, Integer::sum);
        });
      }
    }
    for (Feature feature : setup.features()) {
      feature.bind(builder);
    }
    RequestValidator validator = new ContractValidator(vertx, setup.contract().contract());
    for (OpenAPIRoute route : builder.getRoutes()) {
      // security is enforced by the features' guards and root handlers, not by Vert.x's chains
      route.setDoSecurity(false);
      String operationId = route.getOperation().getOperationId();
      if (route.getHandlers().size() <= guards.getOrDefault(operationId, 0)) {
        throw new IllegalStateException("openapi.yaml operation '" + operationId + "' has no handler");
      }
      // first, where the router's validation handler would be
      route.setDoValidation(false);
      route.getHandlers().add(0, new ProvenOrValidated(route.getOperation(), validator,
          provenValid(setup, operationId).orElse(ctx -> false)));
    }
    return builder.createRouter();
  }
}
