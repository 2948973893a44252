package io.gpurental.gateway.fleet;

import io.gpurental.gateway.auth.tokens.TokenSecrets;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.Page;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.jobs.JobRun;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fleet's port for the operator: sites, hosts and their enrolment, activation and
 * credentials. Every change is audited with the acting operator, in the change's transaction,
 * and every status change is announced on {@link HostChanges}.
 */
public final class Hosts {
  private static final String SELECT = """
      SELECT h.id, h.name, h.site_id, h.status, h.public_address, h.created_at, h.enrolled_at,
             b.last_at, b.agent_version, f.facts,
             (SELECT c.prefix FROM host_credentials c WHERE c.host_id = h.id AND c.revoked_at IS NULL) AS credential,
             array(SELECT g.idx FROM gpus g WHERE g.host_id = h.id ORDER BY g.idx) AS gpu_idx,
             array(SELECT g.uuid FROM gpus g WHERE g.host_id = h.id ORDER BY g.idx) AS gpu_uuid,
             array(SELECT g.nvidia_smi_name FROM gpus g WHERE g.host_id = h.id ORDER BY g.idx) AS gpu_name,
             array(SELECT g.model FROM gpus g WHERE g.host_id = h.id ORDER BY g.idx) AS gpu_model,
             array(SELECT g.vram_gb FROM gpus g WHERE g.host_id = h.id ORDER BY g.idx) AS gpu_vram,
             array(SELECT coalesce(gh.status, 'healthy') FROM gpus g LEFT JOIN gpu_health gh ON gh.gpu_id = g.id
                   WHERE g.host_id = h.id ORDER BY g.idx) AS gpu_health,
             array(SELECT gh.reason FROM gpus g LEFT JOIN gpu_health gh ON gh.gpu_id = g.id
                   WHERE g.host_id = h.id ORDER BY g.idx) AS gpu_health_reason,
             array(SELECT gh.since FROM gpus g LEFT JOIN gpu_health gh ON gh.gpu_id = g.id
                   WHERE g.host_id = h.id ORDER BY g.idx) AS gpu_health_since,
             h.health_reason
      FROM hosts h LEFT JOIN host_heartbeats b ON b.host_id = h.id LEFT JOIN host_facts f ON f.host_id = h.id
      WHERE ($1::text IS NULL OR h.id = $1) AND ($2::timestamptz IS NULL OR (h.created_at, h.id) < ($2, $3))
      ORDER BY h.created_at DESC, h.id DESC LIMIT $4""";
  private static final String ACTIVATION = """
      SELECT h.site_id, h.cpu_cores, h.ram_gb, h.nvme_gb, count(g.id) :: integer AS gpus, min(g.model) AS model,
             f.runtime, f.container_toolkit_version
      FROM hosts h LEFT JOIN gpus g ON g.host_id = h.id LEFT JOIN host_facts f ON f.host_id = h.id WHERE h.id = $1
      GROUP BY h.site_id, h.cpu_cores, h.ram_gb, h.nvme_gb, f.runtime, f.container_toolkit_version""";
  private static final List<String> OPERATOR_ACTIVATES_FROM = List.of(HostLifecycle.PENDING, HostLifecycle.DEACTIVATED);
  private static final List<String> OPERATOR_DEACTIVATES_FROM = List.of(HostLifecycle.ACTIVE, HostLifecycle.DEGRADED,
      HostLifecycle.OFFLINE);

  private final Vertx vertx;
  private final HostRepository repository;
  private final AgentFleet instances;
  private final TelemetryReads telemetry;

  Hosts(Vertx vertx, HostRepository repository, AgentFleet instances, TelemetryReads telemetry) {
    this.vertx = vertx;
    this.repository = repository;
    this.instances = instances;
    this.telemetry = telemetry;
  }

  /** The hosts' telemetry: the latest samples and series for charts. */
  public TelemetryReads telemetry() {
    return telemetry;
  }

  /** A host as the operator sees it. */
  public record Host(String id, String name, String siteId, String status, String publicAddress,
      OffsetDateTime createdAt, OffsetDateTime enrolledAt, OffsetDateTime lastHeartbeatAt, String agentVersion,
      String credentialPrefix, JsonObject facts, List<Gpu> gpus, String healthReason) {}

  /**
   * A GPU with the name nvidia-smi gives it, the model it is recognised as (null: unknown) and
   * its health (healthy, degraded or faulty; why, and since when).
   */
  public record Gpu(int index, String uuid, String nvidiaSmiName, String model, int vramGb, String health,
      String healthReason, OffsetDateTime healthSince) {}

  /**
   * What the catalog needs to make the host's offer; {@code runtime} is the agent's ({@code
   * container}, {@code process}, {@code simulated}, or null: an agent older than Fleet III).
   */
  public record ActivationFacts(String hostId, String siteId, String gpuModel, int gpuCount, int cpuCores, int ramGb,
      int nvmeGb, String runtime) {
    /** A process-runtime host isolates nothing between renters: it is rented whole, to one at a time. */
    public boolean rentedWhole() {
      return RuntimeChecks.PROCESS.equals(runtime);
    }
  }

  /** A new host and the one-time secret its agent enrols with. */
  public record Enrolment(String hostId, String enrollmentToken, OffsetDateTime expiresAt) {}

  /** A place hosts stand in. */
  public record Site(String id, String name, String region, String country) {}

  /** Every site, by name (an operator has a handful). */
  public Future<List<Site>> sites() {
    return repository.pool().query("SELECT id, name, region, country FROM sites ORDER BY name").execute().map(rows -> {
      List<Site> sites = new ArrayList<>();
      rows.forEach(row -> sites.add(new Site(row.getString("id"), row.getString("name"), row.getString("region"),
          row.getString("country").trim())));
      return sites;
    });
  }

  public Future<String> createSite(String name, String region, String country, String actor) {
    String id = Ids.newId("site");
    return repository.createSite(id, name, region, country, actor).map(id);
  }

  public Future<Enrolment> createHost(String siteId, String name, String publicAddress, String actor) {
    String id = Ids.newId("host");
    String token = TokenSecrets.generate(TokenSecrets.ENROLMENT_PREFIX);
    OffsetDateTime expires = OffsetDateTime.now().plus(HostRepository.ENROLMENT_TOKEN_LIFETIME);
    return repository.createHost(id, siteId, name, publicAddress, token, actor)
        .map(v -> new Enrolment(id, token, expires));
  }

  /** A new enrolment token for a host still enrolling (the earlier ones stop working). */
  public Future<Enrolment> reissueEnrolmentToken(String hostId, String actor) {
    String token = TokenSecrets.generate(TokenSecrets.ENROLMENT_PREFIX);
    OffsetDateTime expires = OffsetDateTime.now().plus(HostRepository.ENROLMENT_TOKEN_LIFETIME);
    return repository.reissueToken(hostId, token, actor).map(v -> new Enrolment(hostId, token, expires));
  }

  /** Newest first, after the cursor position; one more than the limit tells of a next page. */
  public Future<List<Host>> list(Optional<Page.Position> after, int limit) {
    return select(null, after.map(Page.Position::createdAt).orElse(null), after.map(Page.Position::id).orElse(null),
        limit + 1);
  }

  public Future<Optional<Host>> get(String hostId) {
    return select(hostId, null, null, 1).map(hosts -> hosts.stream().findFirst());
  }

  /**
   * Checks that the host may be activated and recognises its GPUs: 409 while it is not pending
   * or deactivated, or while a GPU's nvidia-smi name matches no model (named in the answer).
   */
  public Future<ActivationFacts> readyForActivation(String hostId) {
    return repository.pool().withTransaction(tx -> HostRepository.lock(tx, hostId).compose(host -> {
      String status = host.getString("status");
      if (!OPERATOR_ACTIVATES_FROM.contains(status)) {
        throw new Conflict("Host " + hostId + " is " + status + "; only a pending or deactivated host can be activated.");
      }
      return HostRepository.recognise(tx, hostId);
    }).compose(unknown -> {
      if (!unknown.isEmpty()) {
        throw new Conflict("Host " + hostId + " has GPUs no model is known for: " + String.join(", ", unknown)
            + ". Map each name to a GPU model (POST /api/v1/operator/gpu-names), then activate.",
            new JsonObject().put("unknown_gpu_names", new JsonArray(unknown)));
      }
      return tx.preparedQuery(ACTIVATION).execute(Tuple.of(hostId));
    }).map(rows -> {
      Row row = rows.iterator().next();
      if (row.getInteger("gpus") == 0) {
        throw new Conflict("Host " + hostId + " reported no GPUs.");
      }
      RuntimeChecks.requireSafeToolkit(hostId, row.getString("runtime"), row.getString("container_toolkit_version"));
      return new ActivationFacts(hostId, row.getString("site_id"), row.getString("model"), row.getInteger("gpus"),
          row.getInteger("cpu_cores"), row.getInteger("ram_gb"), row.getInteger("nvme_gb"), row.getString("runtime"));
    }));
  }

  /** Makes the host active (its offer, made by the catalog, is listed from now on). */
  public Future<Void> activate(String hostId, String actor, JsonObject details) {
    return move(hostId, OPERATOR_ACTIVATES_FROM, HostLifecycle.ACTIVE, actor, "host.activated", details);
  }

  /** Takes the host out of the catalog; booked reservations stay. */
  public Future<Void> deactivate(String hostId, String actor) {
    return move(hostId, OPERATOR_DEACTIVATES_FROM, HostLifecycle.DEACTIVATED, actor, "host.deactivated",
        new JsonObject());
  }

  /** Revokes the host's credential: its agent gets 401 from now on. */
  public Future<Void> revokeCredential(String hostId, String actor) {
    return repository.pool().withTransaction(tx -> HostRepository.lock(tx, hostId)
        .compose(host -> HostRepository.revokeCredentials(tx, hostId))
        .compose(revoked -> {
          if (!revoked) {
            throw new Conflict("Host " + hostId + " has no live credential.");
          }
          return AuditLog.append(tx, actor, "host.credential_revoked", hostId, null, null);
        }));
  }

  /** Replaces the host's credential with a new one, answered once; the old one stops working at once. */
  public Future<String> rotateCredential(String hostId, String actor) {
    String credential = TokenSecrets.generate(TokenSecrets.HOST_PREFIX);
    return repository.pool().withTransaction(tx -> HostRepository.lock(tx, hostId).compose(host -> {
      if (!host.getBoolean("enrolled")) {
        throw new Conflict("Host " + hostId + " has not enrolled yet; its agent enrols with the enrolment token.");
      }
      return HostRepository.revokeCredentials(tx, hostId);
    }).compose(v -> HostRepository.insertCredential(tx, hostId, credential))
        .compose(v -> AuditLog.append(tx, actor, "host.credential_rotated", hostId, null,
            new JsonObject().put("credential_prefix", TokenSecrets.displayPrefix(credential))))
        .map(credential));
  }

  /**
   * The cluster-singleton job: active hosts silent for too long become offline, and the instances
   * they were running are interrupted (downtime credit, failure after the grace).
   */
  public Future<Void> markOffline(java.time.Duration silence, JobRun run) {
    return repository.markOffline(silence).compose(ids -> {
      ids.forEach(id -> HostChanges.publish(vertx, id, HostLifecycle.OFFLINE));
      // skipped after a freeze: the reservations' scheduler repairs interruptions the fleet did not report
      return run.stillCurrent().compose(v -> instances.hostsDown(ids, "host offline"));
    });
  }

  private Future<Void> move(String hostId, List<String> from, String to, String actor, String action,
      JsonObject details) {
    return repository.pool().withTransaction(tx -> HostRepository.lock(tx, hostId).compose(host -> {
      String status = host.getString("status");
      if (!from.contains(status)) {
        throw new Conflict("Host " + hostId + " is " + status + " and cannot become " + to + " this way.");
      }
      return HostRepository.move(tx, hostId, status, to)
          .compose(v -> AuditLog.append(tx, actor, action, hostId, new JsonObject().put("status", status),
              details.copy().put("status", to)));
    })).onSuccess(v -> HostChanges.publish(vertx, hostId, to));
  }

  private Future<List<Host>> select(String hostId, OffsetDateTime afterCreated, String afterId, int limit) {
    return repository.pool().preparedQuery(SELECT).execute(Tuple.of(hostId, afterCreated, afterId, limit)).map(rows -> {
      List<Host> hosts = new ArrayList<>();
      rows.forEach(row -> hosts.add(toHost(row)));
      return hosts;
    });
  }

  private static Host toHost(Row row) {
    Integer[] idx = row.getArrayOfIntegers("gpu_idx");
    List<Gpu> gpus = new ArrayList<>();
    for (int i = 0; i < idx.length; i++) {
      gpus.add(new Gpu(idx[i], row.getArrayOfStrings("gpu_uuid")[i], row.getArrayOfStrings("gpu_name")[i],
          row.getArrayOfStrings("gpu_model")[i], row.getArrayOfIntegers("gpu_vram")[i],
          row.getArrayOfStrings("gpu_health")[i], row.getArrayOfStrings("gpu_health_reason")[i],
          row.getArrayOfOffsetDateTimes("gpu_health_since")[i]));
    }
    Object facts = row.getValue("facts");
    return new Host(row.getString("id"), row.getString("name"), row.getString("site_id"), row.getString("status"),
        row.getString("public_address"), row.getOffsetDateTime("created_at"), row.getOffsetDateTime("enrolled_at"),
        row.getOffsetDateTime("last_at"), row.getString("agent_version"), row.getString("credential"),
        facts instanceof JsonObject json ? json : null, gpus, row.getString("health_reason"));
  }
}
