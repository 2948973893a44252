package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.config.ManagementConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.web.Router;
import io.vertx.micrometer.PrometheusScrapingHandler;

/**
 * The management listener: Prometheus metrics and the health checks, on an interface of its own
 * (loopback by default) so that what the node measures is not served to the public.
 */
public final class ManagementVerticle extends VerticleBase {
  private final ManagementConfig config;
  private final HealthChecks liveness;
  private final HealthChecks readiness;
  private final PrometheusMeterRegistry metrics;
  private HttpServer server;

  public ManagementVerticle(ManagementConfig config, HealthChecks liveness, HealthChecks readiness,
      PrometheusMeterRegistry metrics) {
    this.config = config;
    this.liveness = liveness;
    this.readiness = readiness;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.route().handler(new RequestIds());
    GatewayRouter.mountHealth(router, liveness, readiness);
    router.get("/metrics").handler(PrometheusScrapingHandler.create(metrics));
    ProblemHandler problems = new ProblemHandler(0); // this listener reads no request bodies
    router.route().failureHandler(problems);
    router.errorHandler(404, problems);
    router.errorHandler(405, problems);
    router.errorHandler(500, problems);
    // scrapers and probes speak HTTP/1.1; an h2c upgrade of a large scrape was seen to garble it
    server = vertx.createHttpServer(new HttpServerOptions().setHost(config.host()).setPort(config.port())
        .setHttp2ClearTextEnabled(false));
    return server.requestHandler(router).listen();
  }

  @Override
  public Future<?> stop() {
    return server.close();
  }
}
