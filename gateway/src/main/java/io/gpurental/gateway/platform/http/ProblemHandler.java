package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.platform.db.DatabaseOutages;
import io.gpurental.gateway.platform.errors.Problem;
import io.gpurental.gateway.platform.errors.Problems;
import io.gpurental.gateway.platform.errors.ServiceUnavailable;
import io.gpurental.gateway.platform.errors.TooManyRequests;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one error path: renders every failure and every unmatched route as problem+json, logs
 * server errors once with their cause and request id, and never puts a stack trace in a body.
 */
public final class ProblemHandler implements Handler<RoutingContext> {
  private static final Logger LOG = LoggerFactory.getLogger(ProblemHandler.class);
  private static final long RETRY_AFTER_SECONDS = 2;
  private final long bodyLimit;

  public ProblemHandler(long bodyLimit) {
    this.bodyLimit = bodyLimit;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String requestId = RequestIds.of(ctx);
    Throwable failure = ctx.failure();
    boolean outage = failure != null && DatabaseOutages.isOutage(failure);
    if (outage) {
      // one line, no stack trace: during an outage every request says the same
      LOG.warn("{} {} answered 503, PostgreSQL unavailable: {} [request {}]", ctx.request().method(),
          ctx.request().path(), failure.toString(), requestId);
      failure = new ServiceUnavailable("The database is unavailable; retry shortly.", RETRY_AFTER_SECONDS);
    }
    Problem problem = Problems.of(failure, ctx.statusCode(), ctx.request().method(), ctx.request().path(), bodyLimit);
    if (problem.status() >= 500 && !outage && ctx.response().closed()) {
      // nobody hears this answer (e.g. a stopping node's own demo agents hung up before its pool
      // closed); the client retries what matters, so one line is enough
      LOG.warn("{} {} failed after the client hung up: {} [request {}]", ctx.request().method(),
          ctx.request().path(), String.valueOf(failure), requestId);
    } else if (problem.status() >= 500 && !outage) {
      LOG.error("{} {} failed [request {}]", ctx.request().method(), ctx.request().path(), requestId, failure);
    }
    HttpServerResponse response = ctx.response();
    if (response.headWritten()) {
      // too late for a problem body: end what was started so the client is not left waiting
      if (!response.ended()) {
        response.reset();
      }
      return;
    }
    if (problem.status() == 401) {
      response.putHeader("WWW-Authenticate", "Bearer realm=\"gpu-rental-gateway\"");
    }
    if (problem.status() == 413) {
      response.putHeader("Connection", "close");
    }
    if (problem.extensions() != null && problem.extensions().containsKey(TooManyRequests.RETRY_AFTER)) {
      response.putHeader("Retry-After", String.valueOf(problem.extensions().getLong(TooManyRequests.RETRY_AFTER)));
    }
    String body = problem.toJson(ctx.request().path(), requestId).encode();
    ProblemRecorder recorder = ctx.get(ProblemRecorder.KEY);
    Future<Void> recorded = recorder != null && problem.status() < 500 ? recorder.record(problem.status(), body)
        : Future.succeededFuture();
    recorded.onComplete(done -> {
      if (done.failed()) {
        LOG.warn("Could not keep the answer of {} {} for replays [request {}]: {}", ctx.request().method(),
            ctx.request().path(), requestId, done.cause().toString());
      }
      response.setStatusCode(problem.status())
          .putHeader("Content-Type", Problem.MEDIA_TYPE)
          .putHeader("Cache-Control", "no-store")
          .end(body);
    });
  }
}
