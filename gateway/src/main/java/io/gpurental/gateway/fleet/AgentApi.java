package io.gpurental.gateway.fleet;

import io.gpurental.gateway.auth.Principal;
import io.gpurental.gateway.auth.tokens.TokenSecrets;
import io.gpurental.gateway.config.FleetConfig;
import io.gpurental.gateway.platform.QueryNumbers;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@code /agent/…}: what host agents call (docs/agent-protocol.md). */
final class AgentApi {
  private static final int DEFAULT_WAIT_SECONDS = 25;
  private final Vertx vertx;
  private final HostRepository hosts;
  private final InstanceRepository instances;
  private final DesiredStateWaits waits;
  private final AgentFleet fleet;
  private final FleetConfig config;
  private final Heartbeats heartbeats;

  AgentApi(Vertx vertx, HostRepository hosts, InstanceRepository instances, DesiredStateWaits waits, AgentFleet fleet,
      FleetConfig config, Heartbeats heartbeats) {
    this.vertx = vertx;
    this.hosts = hosts;
    this.instances = instances;
    this.waits = waits;
    this.fleet = fleet;
    this.config = config;
    this.heartbeats = heartbeats;
  }

  void bind(RouterBuilder api) {
    api.getRoute("enrollAgent").addHandler(this::enroll);
    api.getRoute("sendHeartbeat").addHandler(this::heartbeat);
    api.getRoute("getDesiredState").addHandler(this::desiredState);
    api.getRoute("reportInstance").addHandler(this::report);
  }

  private void enroll(RoutingContext ctx) {
    String token = ctx.request().getHeader("Authorization").substring(7).trim();
    String credential = TokenSecrets.generate(TokenSecrets.HOST_PREFIX);
    hosts.enrol(token, HostFacts.of(ctx.body().asJsonObject()), credential)
        .onSuccess(hostId -> ctx.response().setStatusCode(201).putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("host_id", hostId).put("credential", credential)
                .put("heartbeat_interval_seconds", config.heartbeatInterval().toSeconds()).encode()))
        .onFailure(ctx::fail);
  }

  private void heartbeat(RoutingContext ctx) {
    String hostId = Principal.required(ctx).hostId();
    JsonObject body = ctx.body().asJsonObject();
    JsonObject raw = body.getJsonObject("telemetry");
    heartbeats.record(hostId, body.getString("agent_version"), raw, Telemetry.of(raw),
            Heartbeats.images(body.getJsonArray("images")), body.getJsonObject("container_isolation"))
        .onSuccess(version -> ctx.json(new JsonObject()
            .put("heartbeat_interval_seconds", config.heartbeatInterval().toSeconds()).put("desired_version", version)))
        .onFailure(ctx::fail);
  }

  private void desiredState(RoutingContext ctx) {
    String hostId = Principal.required(ctx).hostId();
    Long after = QueryNumbers.wholeNumber(ctx, "after_version");
    Long wait = QueryNumbers.wholeNumber(ctx, "wait_seconds");
    Promise<Void> gone = Promise.promise();
    // an agent that hung up (the sandbox's demo agents stop just before their node) gets no answer,
    // and a state read the closing pool refused then is no error of this request
    AtomicBoolean hungUp = new AtomicBoolean();
    ctx.response().closeHandler(v -> {
      hungUp.set(true);
      gone.tryComplete();
    });
    // a draining node answers its polls at once, so agents ask again (another node) instead of
    // holding the shutdown for the whole drain timeout
    ctx.request().connection().shutdownHandler(v -> gone.tryComplete());
    waits.await(hostId, after, Duration.ofSeconds(wait == null ? DEFAULT_WAIT_SECONDS : wait), gone.future())
        .onSuccess(state -> {
          if (!ctx.response().closed() && !hungUp.get()) {
            ctx.json(toJson(state));
          }
        })
        .onFailure(e -> {
          if (!hungUp.get()) {
            ctx.fail(e);
          }
        });
  }

  private void report(RoutingContext ctx) {
    String hostId = Principal.required(ctx).hostId();
    String reservationId = ctx.pathParam("instance_id");
    JsonObject body = ctx.body().asJsonObject();
    String state = body.getString("state");
    Optional<SshAccess> access = Optional.empty();
    InstanceRepository.Report report;
    if (InstanceLifecycle.RUNNING.equals(state)) {
      access = Optional.of(access(body));
      SshAccess ssh = access.get();
      report = new InstanceRepository.Report(state, ssh.host(), ssh.port(), ssh.user(), ssh.hostKeyFingerprint(),
          body.getJsonObject("ssh").getString("host_key"), null, null, ssh.ports());
    } else {
      String reason = body.getString("reason");
      if (InstanceLifecycle.FAILED.equals(state) && reason == null) {
        throw new Invalid("A failed instance is reported with a reason.",
            List.of(new Invalid.FieldError("#/reason", "required when state is failed")));
      }
      report = new InstanceRepository.Report(state, null, null, null, null, null, reason, pull(state, body), null);
    }
    Optional<SshAccess> reached = access;
    instances.report(hostId, reservationId, report).compose(previous -> {
      if (previous.isEmpty()) {
        return Future.failedFuture(new NotFound("Instance " + reservationId + " is not on this host."));
      }
      return fleet.reported(reservationId, previous.get(), report, reached);
    }).onSuccess(v -> ctx.response().setStatusCode(204).end()).onFailure(ctx::fail);
  }

  /** A running report's SSH access and published ports, checked: the host, the key's fingerprint, each port once. */
  private static SshAccess access(JsonObject body) {
    JsonObject ssh = body.getJsonObject("ssh");
    if (ssh == null) {
      throw new Invalid("A running instance is reported with its ssh access.",
          List.of(new Invalid.FieldError("#/ssh", "required when state is running")));
    }
    int port = ssh.getInteger("port");
    if (!SshHosts.valid(ssh.getString("host"))) {
      throw new Invalid("The reported SSH host is not a DNS name or an IP address.",
          List.of(new Invalid.FieldError("#/ssh/host", "must be a valid DNS name or IP literal (no spaces, wildcards"
              + " or shell syntax)")));
    }
    HostKeys.Verified key = HostKeys.verify(ssh.getString("host_key"), ssh.getString("host_key_fingerprint"),
        ssh.getString("host"), port);
    List<PublishedPort> ports = new ArrayList<>();
    JsonArray reported = body.getJsonArray("ports", new JsonArray());
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < reported.size(); i++) {
      JsonObject p = reported.getJsonObject(i);
      if (!seen.add(p.getInteger("container_port"))) {
        throw new Invalid("A container port is published once.",
            List.of(new Invalid.FieldError("#/ports/" + i + "/container_port", "reported twice")));
      }
      ports.add(new PublishedPort(p.getInteger("container_port"), p.getInteger("host_port")));
    }
    return new SshAccess(ssh.getString("user"), ssh.getString("host"), port, key.fingerprint(), key.knownHostsLine(),
        ports);
  }

  /** A pulling report's progress; 400 when it is missing or its bytes done exceed the total. */
  private static InstanceRepository.Pull pull(String state, JsonObject body) {
    if (!InstanceLifecycle.PULLING.equals(state)) {
      return null;
    }
    JsonObject pull = body.getJsonObject("pull");
    if (pull == null) {
      throw new Invalid("A pulling instance is reported with its progress.",
          List.of(new Invalid.FieldError("#/pull", "required when state is pulling")));
    }
    Long total = pull.getLong("bytes_total");
    long done = pull.getLong("bytes_done");
    if (total != null && done > total) {
      throw new Invalid("pull.bytes_done cannot exceed pull.bytes_total.",
          List.of(new Invalid.FieldError("#/pull/bytes_done", "more than bytes_total")));
    }
    return new InstanceRepository.Pull(done, total);
  }

  private static JsonObject toJson(DesiredState state) {
    JsonArray instances = new JsonArray();
    for (DesiredState.Instance instance : state.instances()) {
      JsonArray gpus = new JsonArray();
      for (int i = 0; i < instance.gpuIndexes().size(); i++) {
        gpus.add(new JsonObject().put("index", instance.gpuIndexes().get(i)).put("uuid", instance.gpuUuids().get(i)));
      }
      JsonObject json = new JsonObject().put("id", instance.id()).put("user", instance.user())
          .put("ends_at", instance.endsAt().toInstant().toString()).put("ssh_public_key", instance.sshPublicKey())
          .put("gpus", gpus);
      if (instance.image() != null) {
        json.put("image", new JsonObject().put("ref", instance.image().ref())
            .put("ports", new JsonArray(instance.image().ports())));
      }
      Fleet.Limits limits = instance.limits();
      if (limits != null) {
        json.put("limits", new JsonObject().put("cpus", limits.cpus()).put("memory_mib", limits.memoryMib())
            .put("disk_gb", limits.diskGb()).put("pids", limits.pids()).put("shm_mib", limits.shmMib()));
      }
      instances.add(json);
    }
    return new JsonObject().put("version", state.version()).put("instances", instances)
        .put("pre_pull", new JsonArray(state.prePull())).put("image_cache_limit_gb", state.imageCacheLimitGb());
  }
}
