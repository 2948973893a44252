package io.gpurental.gateway.agents;

import io.gpurental.gateway.platform.errors.ApiException;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/** A failed answer kept under an idempotency key, raised again as the same problem on a retry. */
final class ReplayedProblem extends ApiException {
  private static final String TYPE_PREFIX = "urn:problem-type:gpu-rental:";
  private static final Set<String> STANDARD = Set.of("type", "title", "status", "detail", "instance", "request_id");

  ReplayedProblem(JsonObject problem) {
    super(problem.getInteger("status", 500), slug(problem.getString("type", "")), problem.getString("title", ""),
        problem.getString("detail", ""), extensions(problem));
  }

  private static String slug(String type) {
    return type.startsWith(TYPE_PREFIX) ? type.substring(TYPE_PREFIX.length()) : "internal";
  }

  private static JsonObject extensions(JsonObject problem) {
    JsonObject extensions = new JsonObject();
    problem.forEach(e -> {
      if (!STANDARD.contains(e.getKey())) {
        extensions.put(e.getKey(), e.getValue());
      }
    });
    return extensions;
  }
}
