package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.platform.errors.Problem;
import io.gpurental.gateway.platform.errors.Problems;
import io.netty.handler.codec.TooLongFrameException;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import java.util.UUID;

/**
 * Requests Netty could not decode (a request line or headers beyond Vert.x's limits, a broken
 * request line) never reach the router; Vert.x's default answered them 414, 431 or 400 with an
 * empty body (found by ContractFuzzTest: a 10,000-character query value). They get problem+json
 * like every other error, and the connection is closed, as its state is unknown.
 */
final class InvalidRequests implements Handler<HttpServerRequest> {
  private final long bodyLimit;

  InvalidRequests(long bodyLimit) {
    this.bodyLimit = bodyLimit;
  }

  @Override
  public void handle(HttpServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    int status = 400;
    if (cause instanceof TooLongFrameException tooLong && tooLong.getMessage() != null) {
      status = tooLong.getMessage().contains("header") ? 431 : 414; // Netty: "HTTP header is larger than …"
    }
    String path = request.path() == null ? "/" : request.path();
    Problem problem = Problems.ofStatus(status, request.method(), path, bodyLimit);
    String id = UUID.randomUUID().toString();
    request.response().setStatusCode(status)
        .putHeader("Content-Type", Problem.MEDIA_TYPE)
        .putHeader(RequestIds.HEADER, id)
        .putHeader("Connection", "close")
        .end(problem.toJson(path, id).encode())
        .onComplete(done -> {
          if (request.connection() != null) {
            request.connection().close();
          }
        });
  }
}
