package io.gpurental.gateway.platform.http;

import io.gpurental.gateway.config.HttpConfig;
import io.gpurental.gateway.platform.ApiContract;
import io.gpurental.gateway.platform.Feature;
import io.vertx.ext.healthchecks.HealthChecks;
import java.util.List;

/** Everything the HTTP verticles of one node share: built once at boot, read-only afterwards. */
public record HttpSetup(
    HttpConfig http,
    ApiContract contract,
    List<Feature> features,
    HealthChecks liveness,
    HealthChecks readiness) {}
