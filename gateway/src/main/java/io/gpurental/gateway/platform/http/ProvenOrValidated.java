package io.gpurental.gateway.platform.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import io.vertx.ext.web.openapi.router.RequestExtractor;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.validation.RequestValidator;
import io.vertx.openapi.validation.ValidatorException;
import java.util.function.Predicate;

/**
 * Takes the place of the router's request validation on every route, with {@link ContractValidator}:
 * a request a feature's quick check proves valid goes straight on; any other is validated as the
 * router's own handler does it (the same checks, the same 400), so a client sees no difference but
 * the cost.
 */
final class ProvenOrValidated implements Handler<RoutingContext> {
  /** Where the router's validation handler leaves the validated request. */
  private static final String VALIDATED = "openApiValidatedRequest";
  private final Operation operation;
  private final RequestValidator validator;
  private final Predicate<RoutingContext> proven;

  ProvenOrValidated(Operation operation, RequestValidator validator, Predicate<RoutingContext> proven) {
    this.operation = operation;
    this.validator = validator;
    this.proven = proven;
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (proven.test(ctx)) {
      ctx.next();
      return;
    }
    RequestExtractor.withBodyHandler().extractValidatableRequest(ctx, operation)
        .compose(request -> validator.validate(request, operation.getOperationId()))
        .onSuccess(validated -> {
          ctx.put(VALIDATED, validated);
          ctx.next();
        })
        .onFailure(e -> ctx.fail(e instanceof ValidatorException ? new HttpException(400, e.getMessage(), e) : e));
  }
}
