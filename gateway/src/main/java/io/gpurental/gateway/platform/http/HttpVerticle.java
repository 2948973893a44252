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
        .setCompressionSupported(true));
    return server.requestHandler(GatewayRouter.create(vertx, setup)).listen();
  }

  /** Stops accepting connections and lets in-flight requests finish, bounded by the drain timeout. */
  @Override
  public Future<?> stop() {
    return server.shutdown(setup.http().drainTimeout().toMillis(), TimeUnit.MILLISECONDS);
  }
}
