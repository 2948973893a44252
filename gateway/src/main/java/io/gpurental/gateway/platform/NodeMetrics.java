package io.gpurental.gateway.platform;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.VertxPrometheusOptions;
import java.util.EnumSet;
import java.util.Set;

/**
 * A node's Prometheus registry: Vert.x HTTP server metrics labelled by route template and method,
 * the PostgreSQL pool, the event bus, and the JVM. Every label value comes from a closed set: a
 * value a client could choose (a made-up method, a raw path) would create series without bound.
 */
public final class NodeMetrics {
  static final String OTHER_METHOD = "OTHER";
  static final String UNMATCHED_ROUTE = "unmatched";
  private static final Set<String> STANDARD_METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

  private NodeMetrics() {}

  public static PrometheusMeterRegistry registry() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config()
        .meterFilter(MeterFilter.replaceTagValues(Label.HTTP_METHOD.toString(), NodeMetrics::methodLabel))
        .meterFilter(MeterFilter.replaceTagValues(Label.HTTP_ROUTE.toString(), NodeMetrics::routeLabel));
    return registry;
  }

  static String methodLabel(String method) {
    return STANDARD_METHODS.contains(method) ? method : OTHER_METHOD;
  }

  /**
   * Vert.x labels a request with the templates of the routes it passed through: none for a path
   * no route matched, only the API's mount point for an API path that no operation matched.
   */
  static String routeLabel(String route) {
    return route.isEmpty() || route.endsWith(ApiContract.BASE_PATH + "/") ? UNMATCHED_ROUTE : route;
  }

  /** Adds JVM meters; call after Vert.x has installed its meter filters on the registry. */
  public static void bindJvmMetrics(PrometheusMeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  public static MicrometerMetricsOptions vertxOptions() {
    return new MicrometerMetricsOptions()
        .setEnabled(true)
        .setJvmMetricsEnabled(false)
        .setPrometheusOptions(new VertxPrometheusOptions().setEnabled(true).setPublishQuantiles(true))
        .setLabels(EnumSet.of(Label.HTTP_ROUTE, Label.HTTP_METHOD, Label.HTTP_CODE,
            Label.POOL_TYPE, Label.POOL_NAME, Label.EB_ADDRESS, Label.EB_SIDE, Label.EB_FAILURE));
  }
}
