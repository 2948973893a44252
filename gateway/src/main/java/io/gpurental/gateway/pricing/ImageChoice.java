package io.gpurental.gateway.pricing;

import io.vertx.core.Future;
import java.util.List;
import java.util.Optional;

/**
 * How a quote's {@code image} and {@code ports} are checked and resolved (the fleet's templates
 * and allowed registries, wired at boot): empty when nothing is chosen and there is no default
 * template; a 400 naming {@code pointer + "image"} or {@code pointer + "ports"} for a choice that
 * is not allowed.
 */
@FunctionalInterface
public interface ImageChoice {
  Future<Optional<Quote.Image>> choose(String image, List<Integer> ports, String pointer);
}
