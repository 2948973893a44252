package io.gpurental.gateway.operator;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.catalog.GpuModels;
import io.gpurental.gateway.catalog.Offers;
import io.gpurental.gateway.fleet.Hosts;
import io.gpurental.gateway.fleet.TelemetryReads;
import io.gpurental.gateway.fleet.Uptimes;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * {@code /operator/sites}, {@code /operator/hosts…}, {@code /operator/gpu-names}: enrolling
 * hosts, activating them (the fleet's host becomes active, the catalog opens its offer) and
 * taking them out, their credentials, and what their GPUs' names mean.
 */
final class HostsApi {
  private static final int DEFAULT_LIMIT = 50;
  private final Hosts hosts;
  private final Offers offers;
  private final GpuModels gpuModels;
  private final String publicBase;
  private final Uptimes uptimes;
  private final HostFiguresRepository figures;

  HostsApi(Hosts hosts, Offers offers, GpuModels gpuModels, String publicBase, Uptimes uptimes,
      HostFiguresRepository figures) {
    this.uptimes = uptimes;
    this.figures = figures;
    this.hosts = hosts;
    this.offers = offers;
    this.gpuModels = gpuModels;
    this.publicBase = publicBase;
  }

  void bind(RouterBuilder api) {
    api.getRoute("createSite").addHandler(this::createSite);
    api.getRoute("listSites").addHandler(ctx -> hosts.sites().onSuccess(sites -> {
      JsonArray data = new JsonArray();
      sites.forEach(site -> data.add(new JsonObject().put("id", site.id()).put("name", site.name())
          .put("region", site.region()).put("country", site.country())));
      ctx.json(new JsonObject().put("data", data));
    }).onFailure(ctx::fail));
    api.getRoute("createHost").addHandler(this::createHost);
    api.getRoute("listHosts").addHandler(this::list);
    api.getRoute("getHost").addHandler(ctx -> answer(ctx, ctx.pathParam("host_id"), 200));
    api.getRoute("activateHost").addHandler(this::activate);
    api.getRoute("deactivateHost").addHandler(this::deactivate);
    api.getRoute("revokeHostCredential").addHandler(ctx -> hosts.revokeCredential(ctx.pathParam("host_id"), actor(ctx))
        .onSuccess(v -> ctx.response().setStatusCode(204).end()).onFailure(ctx::fail));
    api.getRoute("rotateHostCredential").addHandler(ctx -> hosts.rotateCredential(ctx.pathParam("host_id"), actor(ctx))
        .onSuccess(credential -> ctx.json(new JsonObject().put("credential", credential)))
        .onFailure(ctx::fail));
    api.getRoute("reissueEnrollmentToken").addHandler(ctx -> hosts.reissueEnrolmentToken(ctx.pathParam("host_id"),
            actor(ctx))
        .onSuccess(enrolment -> ctx.json(enrolmentJson(new JsonObject(), enrolment)))
        .onFailure(ctx::fail));
    api.getRoute("mapGpuName").addHandler(this::mapGpuName);
    api.getRoute("getHostTelemetry").addHandler(ctx -> TelemetryJson.series(ctx, hosts));
  }

  private void createSite(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    String name = body.getString("name").trim();
    String country = body.getString("country").toUpperCase(java.util.Locale.ROOT);
    hosts.createSite(name, body.getString("region"), country, actor(ctx))
        .onSuccess(id -> created(ctx, new JsonObject().put("id", id).put("name", name)
            .put("region", body.getString("region")).put("country", country)))
        .onFailure(ctx::fail);
  }

  private void createHost(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    hosts.createHost(body.getString("site_id"), body.getString("name").trim(), body.getString("public_address"),
            actor(ctx))
        .compose(enrolment -> hosts.get(enrolment.hostId())
            .map(host -> enrolmentJson(HostJson.of(host.orElseThrow(), List.of(), null), enrolment)))
        .onSuccess(json -> created(ctx, json))
        .onFailure(ctx::fail);
  }

  private void list(RoutingContext ctx) {
    int limit = QueryNumbers.limit(ctx, DEFAULT_LIMIT);
    Optional<Page.Position> after = Optional.ofNullable(ctx.request().getParam("cursor")).map(Page::decode);
    hosts.list(after, limit)
        .compose(list -> offers.ofHosts(list.stream().map(Hosts.Host::id).toList())
            .compose(ids -> hosts.telemetry().latest(list.stream().map(Hosts.Host::id).toList())
                .map(latest -> Page.of(list, limit, host -> HostJson.of(host, ids.getOrDefault(host.id(), List.of()),
                    latest.get(host.id())), host -> Page.encode(host.createdAt(), host.id()))))
            .compose(page -> withUptime(page.getJsonArray("data")).map(page)))
        .onSuccess(ctx::json)
        .onFailure(ctx::fail);
  }

  private void activate(RoutingContext ctx) {
    String hostId = ctx.pathParam("host_id");
    JsonObject body = ctx.body() == null || ctx.body().isEmpty() ? new JsonObject() : ctx.body().asJsonObject();
    JsonArray counts = body.getJsonArray("gpu_counts");
    JsonObject price = body.getJsonObject("price_per_gpu_hour");
    Optional<Offers.Price> ownPrice = Optional.ofNullable(price)
        .map(p -> new Offers.Price(p.getLong("amount"), p.getString("currency").toLowerCase(java.util.Locale.ROOT)));
    String actor = actor(ctx);
    hosts.readyForActivation(hostId)
        .compose(facts -> offers.open(facts, counts == null ? null : counts.stream().map(c -> (Integer) c).toList(),
            ownPrice, actor))
        .compose(offerId -> hosts.activate(hostId, actor, new JsonObject().put("offer_id", offerId)))
        .onSuccess(v -> answer(ctx, hostId, 200))
        .onFailure(ctx::fail);
  }

  private void deactivate(RoutingContext ctx) {
    String hostId = ctx.pathParam("host_id");
    hosts.deactivate(hostId, actor(ctx))
        .compose(v -> offers.close(hostId, actor(ctx)))
        .onSuccess(v -> answer(ctx, hostId, 200))
        .onFailure(ctx::fail);
  }

  private void mapGpuName(RoutingContext ctx) {
    JsonObject body = ctx.body().asJsonObject();
    GpuModels.NewModel newModel = body.containsKey("vram_gb")
        ? new GpuModels.NewModel(body.getInteger("vram_gb"), body.getString("architecture", "unknown")) : null;
    gpuModels.mapName(body.getString("nvidia_smi_name"), body.getString("gpu_model"), newModel, actor(ctx))
        .onSuccess(v -> ctx.response().setStatusCode(204).end())
        .onFailure(ctx::fail);
  }

  private void answer(RoutingContext ctx, String hostId, int status) {
    hosts.get(hostId).compose(found -> {
      if (found.isEmpty()) {
        return Future.failedFuture(new NotFound("There is no host " + hostId + "."));
      }
      return offers.ofHosts(List.of(hostId)).compose(ids -> hosts.telemetry().latest(List.of(hostId))
          .map(latest -> HostJson.of(found.get(), ids.getOrDefault(hostId, List.of()), latest.get(hostId))))
          .compose(json -> withUptime(new JsonArray().add(json)).map(json));
    }).onSuccess(json -> ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
        .end(json.encode())).onFailure(ctx::fail);
  }

  /**
   * Adds each host's {@code uptime} (from the fleet's status history), {@code time_to_ready} and
   * {@code open_incidents} and {@code costs_entered} to its JSON.
   */
  private Future<Void> withUptime(JsonArray hostsJson) {
    List<String> ids = hostsJson.stream().map(host -> ((JsonObject) host).getString("id")).toList();
    return uptimes.of(ids).compose(byHost -> figures.of(ids).map(figuresByHost -> {
      hostsJson.forEach(host -> {
        JsonObject json = (JsonObject) host;
        Uptimes.Uptime uptime = byHost.get(json.getString("id"));
        HostFiguresRepository.Figures more = figuresByHost.get(json.getString("id"));
        json.put("uptime", uptime == null ? null : uptime.toJson())
            .put("time_to_ready", more == null ? null : more.timeToReady())
            .put("open_incidents", more == null ? 0 : more.openIncidents())
            .put("costs_entered", more != null && more.costsEntered());
      });
      return null;
    }));
  }

  /** The one-time token, when it expires, and the command that enrols the host with it. */
  private JsonObject enrolmentJson(JsonObject json, Hosts.Enrolment enrolment) {
    return json.put("enrollment_token", enrolment.enrollmentToken())
        .put("enrollment_token_expires_at", enrolment.expiresAt().toInstant().toString())
        // the token in the environment: on a command line every user of the host reads it in ps
        .put("agent_command", "GPR_AGENT_ENROLLMENT_TOKEN=" + enrolment.enrollmentToken()
            + " java -jar gpu-host-agent.jar --gateway " + publicBase + " --state-dir /var/lib/gpu-host-agent");
  }

  private static void created(RoutingContext ctx, JsonObject json) {
    ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json").end(json.encode());
  }

  private static String actor(RoutingContext ctx) {
    return "account:" + Principal.required(ctx).accountId();
  }

  /** The host as operators see it. */
  static final class HostJson {
    private HostJson() {}

    /** {@code latest}: the host's latest heartbeat telemetry, null before the first. */
    static JsonObject of(Hosts.Host host, List<String> offerIds, TelemetryReads.Latest latest) {
      JsonArray gpus = new JsonArray();
      JsonArray unknown = new JsonArray();
      for (Hosts.Gpu gpu : host.gpus()) {
        gpus.add(new JsonObject().put("index", gpu.index()).put("uuid", gpu.uuid())
            .put("nvidia_smi_name", gpu.nvidiaSmiName()).put("model", gpu.model()).put("vram_gb", gpu.vramGb())
            .put("health", new JsonObject().put("status", gpu.health()).put("reason", gpu.healthReason())
                .put("since", time(gpu.healthSince())))
            .put("telemetry", TelemetryJson.latestGpu(latest, gpu.index())));
        if (gpu.model() == null && !unknown.contains(gpu.nvidiaSmiName())) {
          unknown.add(gpu.nvidiaSmiName());
        }
      }
      return new JsonObject().put("id", host.id()).put("name", host.name()).put("site_id", host.siteId())
          .put("status", host.status()).put("health_reason", host.healthReason())
          .put("telemetry", latest == null ? null : TelemetryJson.host(latest.host()))
          .put("public_address", host.publicAddress())
          .put("created_at", time(host.createdAt())).put("enrolled_at", time(host.enrolledAt()))
          .put("last_heartbeat_at", time(host.lastHeartbeatAt())).put("agent_version", host.agentVersion())
          .put("credential_prefix", host.credentialPrefix()).put("facts", host.facts())
          .put("gpus", gpus).put("unknown_gpu_names", unknown).put("offers", new JsonArray(offerIds));
    }

    private static String time(OffsetDateTime at) {
      return at == null ? null : at.toInstant().toString();
    }
  }
}
