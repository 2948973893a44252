package io.gpurental.gateway.platform.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.util.concurrent.TimeUnit;

/** One HTTP server instance; a node deploys one per core, all sharing the port. */
public final class HttpVerticle extends VerticleBase {
  private final HttpSetup setup;
  private HttpServer server;

  public HttpVerticle(HttpSetup setup) {
    this.setup = setup;
  }

  @Override
  public Future<?> start() {
    server = vertx.createHttpServer(new HttpServerOptions()
        .setHost(setup.http().host())
        .setPort(setup.http().port())
        .setCompressionSupported(true)
        // no HTTP/2 upgrade over cleartext: TLS ends at the load balancer, which speaks HTTP/1.1
        // here; an h2c upgrade passed through a proxy bypasses its rules ("h2c smuggling"), and
        // over h2c Netty itself answered an oversized request 431 with an empty body, past the
        // problem+json renderer (found by ContractFuzzTest)
        .setHttp2ClearTextEnabled(false));
    return server.requestHandler(GatewayRouter.create(vertx, setup))
        .invalidRequestHandler(new InvalidRequests(setup.http().bodyLimitBytes())).listen();
  }

  /** Stops accepting connections and lets in-flight requests finish, bounded by the drain timeout. */
  @Override
  public Future<?> stop() {
    return server.shutdown(setup.http().drainTimeout().toMillis(), TimeUnit.MILLISECONDS);
  }
}
