package io.gpurental.gateway.platform.http;

import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

/**
 * Keeps the problem a request is answered with, exactly as the one error path rendered it, before
 * it is sent: the idempotency store uses it so that a retry replays the same body, request id
 * included. Only client errors (4xx) are kept; a 5xx is for retrying, not for replaying.
 */
@FunctionalInterface
public interface ProblemRecorder {
  String KEY = "gateway.problem-recorder";

  Future<Void> record(int status, String body);

  /** Asks for the problem this request ends with, if it ends with one. */
  static void attach(RoutingContext ctx, ProblemRecorder recorder) {
    ctx.put(KEY, recorder);
  }
}
