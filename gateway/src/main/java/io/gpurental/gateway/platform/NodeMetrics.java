package io.gpurental.gateway.platform;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
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

/**
 * A node's Prometheus registry: Vert.x HTTP server metrics labelled by route (never by raw path,
 * which would explode cardinality), the PostgreSQL pool, the event bus, and the JVM.
 */
public final class NodeMetrics {
  private NodeMetrics() {}

  public static PrometheusMeterRegistry registry() {
    return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
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
