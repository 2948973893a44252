package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Refuses query parameters the operation does not declare: a misspelt filter silently ignored
 * would return results the caller did not ask for.
 */
final class UnknownQueryParameters implements Handler<RoutingContext> {
  private final Set<String> declared;

  UnknownQueryParameters(Operation operation) {
    this.declared = operation.getParameters().stream()
        .filter(parameter -> parameter.getIn() == Location.QUERY)
        .map(Parameter::getName)
        .collect(Collectors.toUnmodifiableSet());
  }

  @Override
  public void handle(RoutingContext ctx) {
    for (String name : ctx.queryParams().names()) {
      if (!declared.contains(name)) {
        String allowed = declared.isEmpty() ? "none" : String.join(", ", declared.stream().sorted().toList());
        throw new Invalid("Unknown query parameter '" + name + "' (this operation takes: " + allowed + ").",
            List.of(new Invalid.FieldError("#/" + name, "not a parameter of this operation")));
      }
    }
    ctx.next();
  }
}
