package io.gpurental.gateway.platform;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;
import java.util.function.Predicate;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * A feature's share of the HTTP surface: routes outside the API (sign-in redirects, sandbox
 * stand-ins) on the root router, and handlers for its operation ids in the {@code /api/v1}
 * contract. Called once per HTTP verticle instance.
 */
public interface Feature {
  /** Routes outside {@code /api/v1}; mounted before the API and the web UI. */
  default void mount(Router router) {}

  /** Handlers for this feature's operations (and any API-wide root handlers it needs). */
  default void bind(RouterBuilder api) {}

  /**
   * A handler to run first on the given operation's route, before any feature's handlers
   * (e.g. an authorization check).
   */
  default Optional<Handler<RoutingContext>> operationGuard(String operationId) {
    return Optional.empty();
  }

  /**
   * A quick check that proves a request of the given operation valid against the contract, for a
   * hot route where the generic validator costs more than the work: a request it proves valid skips
   * the validator, any other goes through the validator as before (and gets its answer). It must
   * accept only what the contract accepts; false means "not proven", never "invalid".
   */
  default Optional<Predicate<RoutingContext>> provenValid(String operationId) {
    return Optional.empty();
  }

  /** Stops the feature's background work (timers, clients); called once, after HTTP has drained. */
  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
