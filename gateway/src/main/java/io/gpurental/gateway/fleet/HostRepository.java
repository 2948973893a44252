package io.gpurental.gateway.fleet;

import io.gpurental.gateway.auth.tokens.TokenSecrets;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.NotFound;
import io.gpurental.gateway.platform.errors.Unauthorized;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Sites, hosts, their enrolment tokens, credentials, facts and heartbeats in PostgreSQL. */
final class HostRepository {
  static final Duration ENROLMENT_TOKEN_LIFETIME = Duration.ofHours(24);
  private static final String INSERT_SITE = "INSERT INTO sites (id, name, region, country) VALUES ($1, $2, $3, $4)";
  private static final String INSERT_HOST = """
      INSERT INTO hosts (id, site_id, name, status, public_address) VALUES ($1, $2, $3, 'enrolling', $4)""";
  private static final String INSERT_TOKEN = """
      INSERT INTO enrolment_tokens (token_hash, host_id, expires_at) VALUES ($1, $2, now() + $3::integer * interval '1 second')""";
  /** The host's tokens, locked before the host as an enrolment locks them (its token, then the host). */
  private static final String LOCK_TOKENS = "SELECT 1 FROM enrolment_tokens WHERE host_id = $1 FOR UPDATE";
  /** Ends the host's unspent tokens now (a re-issued token replaces them). */
  private static final String EXPIRE_TOKENS = """
      UPDATE enrolment_tokens SET expires_at = least(expires_at, now()) WHERE host_id = $1 AND used_at IS NULL""";
  /** Spends the token: at most one enrolment ever succeeds with it. */
  private static final String SPEND_TOKEN = """
      UPDATE enrolment_tokens SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING host_id""";
  private static final String LOCK_HOST = "SELECT status, enrolled_at IS NOT NULL AS enrolled FROM hosts WHERE id = $1 FOR UPDATE";
  private static final String STORE_FACTS = """
      UPDATE hosts SET cpu_model = $2, cpu_cores = $3, ram_gb = $4, nvme_gb = $5, net_gbps = $6, interconnect = $7,
             enrolled_at = coalesce(enrolled_at, now())
      WHERE id = $1""";
  private static final String UPSERT_FACTS = """
      INSERT INTO host_facts (host_id, hostname, driver_version, cuda_version, agent_version, facts, runtime,
                              container_toolkit_version, engine)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
      ON CONFLICT (host_id) DO UPDATE SET hostname = EXCLUDED.hostname, driver_version = EXCLUDED.driver_version,
        cuda_version = EXCLUDED.cuda_version, agent_version = EXCLUDED.agent_version, facts = EXCLUDED.facts,
        runtime = EXCLUDED.runtime, container_toolkit_version = EXCLUDED.container_toolkit_version,
        engine = EXCLUDED.engine, reported_at = now()""";
  /** The GPUs as reported, each recognised by the first model whose pattern matches its name. */
  private static final String INSERT_GPUS = """
      INSERT INTO gpus (id, host_id, idx, uuid, nvidia_smi_name, vram_gb, model)
      SELECT $1 || '_gpu' || r.idx, $1, r.idx, r.uuid, r.name, greatest(1, round(r.mib / 1024.0)) :: integer,
             (SELECT m.name FROM gpu_models_view m WHERE r.name ~* ANY (m.nvidia_smi_patterns) ORDER BY m.name LIMIT 1)
      FROM unnest($2::integer[], $3::text[], $4::text[], $5::bigint[]) AS r (idx, uuid, name, mib)""";
  private static final String INSERT_CREDENTIAL = """
      INSERT INTO host_credentials (id, host_id, secret_hash, prefix) VALUES ($1, $2, $3, $4)""";
  private static final String REVOKE_CREDENTIALS = """
      UPDATE host_credentials SET revoked_at = now() WHERE host_id = $1 AND revoked_at IS NULL RETURNING id""";
  private static final String HOST_OF_CREDENTIAL = """
      SELECT host_id FROM host_credentials WHERE secret_hash = $1 AND revoked_at IS NULL""";
  private static final String HEARTBEAT = """
      INSERT INTO host_heartbeats (host_id, last_at, agent_version, telemetry) VALUES ($1, now(), $2, $3)
      ON CONFLICT (host_id) DO UPDATE SET last_at = now(), agent_version = EXCLUDED.agent_version,
        telemetry = EXCLUDED.telemetry""";
  private static final String SET_ISOLATION = """
      UPDATE host_facts SET facts = jsonb_set(facts, '{container_isolation}', $2::jsonb), reported_at = now()
      WHERE host_id = $1""";
  /** The one statement that changes a host's status: only from the statuses the lifecycle lists. */
  private static final String MOVE = """
      UPDATE hosts SET status = $3, status_changed_at = now() WHERE id = $1 AND status = ANY ($2) RETURNING id""";
  private static final String MARK_OFFLINE = """
      UPDATE hosts h SET status = 'offline', status_changed_at = now()
      FROM host_heartbeats b
      WHERE b.host_id = h.id AND h.status = ANY ($1) AND b.last_at < now() - $2::integer * interval '1 second'
      RETURNING h.id""";
  /** Recognises GPUs whose name a pattern added since matches; answers the names still unknown. */
  private static final String RECOGNISE = """
      UPDATE gpus g SET model = (SELECT m.name FROM gpu_models_view m
                                 WHERE g.nvidia_smi_name ~* ANY (m.nvidia_smi_patterns) ORDER BY m.name LIMIT 1)
      WHERE g.host_id = $1 AND g.model IS NULL""";
  private static final String UNKNOWN_GPUS = """
      SELECT DISTINCT nvidia_smi_name FROM gpus WHERE host_id = $1 AND model IS NULL ORDER BY 1""";

  /**
   * Seeding nodes that start at once take turns (a transaction-scoped advisory lock): the seeds
   * upsert by id (SEED_HOST and SEED_GPUS must, to update), yet sites.name, hosts.name and gpus
   * (host_id, idx) / (host_id, uuid) are unique too, and a concurrent insert of the same row failed
   * on those keys, which no arbiter covers. After the turn before commits, each statement sees its
   * rows and takes the ON CONFLICT path.
   */
  private static final String SEED_TURN = "SELECT pg_advisory_xact_lock(hashtextextended('fleet:demo-seed', 0))";
  private static final String SEED_SITE = """
      INSERT INTO sites (id, name, region, country) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING""";
  /** A demo host as if its agent had enrolled (a database seeded before agents gains what it lacked). */
  private static final String SEED_HOST = """
      INSERT INTO hosts (id, site_id, name, status, cpu_model, cpu_cores, ram_gb, nvme_gb, net_gbps, interconnect,
                         public_address, enrolled_at)
      VALUES ($1, $2, $3, 'active', $4, $5, $6, $7, $8, $9, $10, now())
      ON CONFLICT (id) DO UPDATE SET enrolled_at = coalesce(hosts.enrolled_at, now()),
        public_address = coalesce(hosts.public_address, EXCLUDED.public_address)""";
  /** Its GPUs, with stable made-up UUIDs in nvidia-smi's form ({@code GPU-<uuid>}). */
  private static final String SEED_GPUS = """
      INSERT INTO gpus (id, host_id, idx, model, vram_gb, uuid, nvidia_smi_name)
      SELECT $1 || '_gpu' || i, $1, i, m.name, m.vram_gb, 'GPU-' || md5($1 || '_gpu' || i) :: uuid, $3
      FROM gpu_models_view m CROSS JOIN generate_series(0, $4 - 1) AS i WHERE m.name = $2
      ON CONFLICT (id) DO UPDATE SET uuid = coalesce(gpus.uuid, EXCLUDED.uuid),
        nvidia_smi_name = coalesce(gpus.nvidia_smi_name, EXCLUDED.nvidia_smi_name)""";

  private final Pool pool;

  HostRepository(Pool pool) {
    this.pool = pool;
  }

  Pool pool() {
    return pool;
  }

  Future<Void> createSite(String id, String name, String region, String country, String actor) {
    return pool.withTransaction(tx -> tx.preparedQuery(INSERT_SITE).execute(Tuple.of(id, name, region, country))
            .compose(v -> AuditLog.append(tx, actor, "site.created", id, null,
                new JsonObject().put("name", name).put("region", region).put("country", country))))
        .recover(failure -> Future.failedFuture(isUnique(failure)
            ? new Conflict("A site named '" + name + "' exists already.") : failure));
  }

  /**
   * A new one-time enrolment token for a host whose agent has not enrolled yet; the unspent ones
   * stop working. 409 once the host has enrolled (its credential is rotated instead).
   */
  Future<Void> reissueToken(String hostId, String token, String actor) {
    return pool.withTransaction(tx -> tx.preparedQuery(LOCK_TOKENS).execute(Tuple.of(hostId))
        .compose(tokens -> lock(tx, hostId))
        .compose(host -> {
          if (!HostLifecycle.ENROLLING.equals(host.getString("status"))) {
            throw new Conflict("Host " + hostId + " has enrolled already (it is " + host.getString("status")
                + "); rotate its credential instead (POST /api/v1/operator/hosts/" + hostId + "/credential/rotate).");
          }
          return tx.preparedQuery(EXPIRE_TOKENS).execute(Tuple.of(hostId));
        })
        .compose(v -> tx.preparedQuery(INSERT_TOKEN).execute(Tuple.of(hash(token), hostId,
            (int) ENROLMENT_TOKEN_LIFETIME.toSeconds())))
        .compose(v -> AuditLog.append(tx, actor, "host.enrollment_token_reissued", hostId, null,
            new JsonObject().put("token_prefix", TokenSecrets.displayPrefix(token)))));
  }

  /** Creates an enrolling host and its one-time enrolment token. */
  Future<Void> createHost(String id, String siteId, String name, String publicAddress, String token, String actor) {
    return pool.withTransaction(tx -> tx.preparedQuery(INSERT_HOST).execute(Tuple.of(id, siteId, name, publicAddress))
            .compose(v -> tx.preparedQuery(INSERT_TOKEN).execute(Tuple.of(hash(token), id,
                (int) ENROLMENT_TOKEN_LIFETIME.toSeconds())))
            .compose(v -> AuditLog.append(tx, actor, "host.created", id, null, new JsonObject().put("name", name)
                .put("site_id", siteId).put("public_address", publicAddress).put("status", HostLifecycle.ENROLLING))))
        .recover(failure -> Future.failedFuture(isUnique(failure)
            ? new Conflict("A host named '" + name + "' exists already.")
            : isMissingReference(failure) ? new NotFound("There is no site " + siteId + ".") : failure));
  }

  /**
   * Spends the enrolment token and stores what the agent reported; the host becomes pending and
   * gets its credential. 401 for a token that is unknown, used or expired.
   */
  Future<String> enrol(String token, HostFacts facts, String credential) {
    return pool.withTransaction(tx -> tx.preparedQuery(SPEND_TOKEN).execute(Tuple.of(hash(token))).compose(spent -> {
      if (spent.size() == 0) {
        return Future.failedFuture(new Unauthorized("The enrolment token is unknown, used or expired."));
      }
      String hostId = spent.iterator().next().getString("host_id");
      return tx.preparedQuery(LOCK_HOST).execute(Tuple.of(hostId))
          .compose(rows -> {
            HostLifecycle.check(hostId, rows.iterator().next().getString("status"), HostLifecycle.PENDING);
            return move(tx, hostId, HostLifecycle.ENROLLING, HostLifecycle.PENDING);
          })
          .compose(v -> tx.preparedQuery(STORE_FACTS).execute(Tuple.from(new Object[] {hostId, facts.cpuModel(),
              facts.cpuCores(), facts.ramGb(), facts.diskGb(), facts.netGbps(), facts.interconnect()})))
          .compose(v -> tx.preparedQuery(UPSERT_FACTS).execute(Tuple.from(new Object[] {hostId, facts.hostname(),
              facts.driverVersion(), facts.cudaVersion(), facts.agentVersion(), facts.raw(), facts.runtime(),
              facts.containerToolkitVersion(), facts.engine()})))
          .compose(v -> tx.preparedQuery(INSERT_GPUS).execute(gpuColumns(hostId, facts.gpus())))
          .compose(v -> insertCredential(tx, hostId, credential))
          .compose(v -> tx.preparedQuery(HEARTBEAT).execute(Tuple.of(hostId, facts.agentVersion(), null)))
          .compose(v -> AuditLog.append(tx, "host:" + hostId, "host.enrolled", hostId,
              new JsonObject().put("status", HostLifecycle.ENROLLING),
              new JsonObject().put("status", HostLifecycle.PENDING).put("gpus", facts.gpus().size())))
          .map(hostId);
    }));
  }

  Future<Void> seedDemo(List<DemoHosts.Site> sites, List<DemoHosts.Host> demoHosts) {
    return pool.withTransaction(tx -> tx.query(SEED_TURN).execute()
        .compose(v -> tx.preparedQuery(SEED_SITE).executeBatch(sites.stream()
            .map(s -> Tuple.of(s.id(), s.name(), s.region(), s.country())).toList()))
        .compose(v -> tx.preparedQuery(SEED_HOST).executeBatch(demoHosts.stream().map(h -> Tuple.from(new Object[] {
            h.id(), h.siteId(), h.name(), h.cpuModel(), h.cpuCores(), h.ramGb(), h.nvmeGb(), h.netGbps(),
            h.interconnect(), h.publicAddress()})).toList()))
        .compose(v -> tx.preparedQuery(SEED_GPUS).executeBatch(demoHosts.stream()
            .map(h -> Tuple.of(h.id(), h.gpuModel(), h.nvidiaSmiName(), h.gpuCount())).toList()))
        .mapEmpty());
  }

  /**
   * Revokes the host's live credential and stores a new one, in one transaction, the host locked
   * first (as a rotation does): two replacements at once would otherwise both revoke the old one
   * and collide on the one live credential a host may have.
   */
  Future<Void> replaceCredential(String hostId, String credential) {
    return pool.withTransaction(tx -> lock(tx, hostId).compose(host -> revokeCredentials(tx, hostId))
        .compose(v -> insertCredential(tx, hostId, credential)));
  }

  Future<Optional<String>> hostOfCredential(String secret) {
    return pool.preparedQuery(HOST_OF_CREDENTIAL).execute(Tuple.of(hash(secret)))
        .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
  }

  /** Records the heartbeat in {@code tx}; true when it brought an offline host back to active. */
  static Future<Boolean> heartbeat(SqlClient tx, String hostId, String agentVersion, JsonObject telemetry) {
    return tx.preparedQuery(HEARTBEAT).execute(Tuple.of(hostId, agentVersion, telemetry))
        .compose(v -> moved(tx, hostId, List.of(HostLifecycle.OFFLINE), HostLifecycle.ACTIVE));
  }

  /**
   * The container runtime's isolation facts as a heartbeat reports them (they change after the
   * enrolment: the disk limit is learnt at the first create), in place of the enrolment's.
   */
  static Future<Void> isolation(SqlClient tx, String hostId, JsonObject isolation) {
    return tx.preparedQuery(SET_ISOLATION).execute(Tuple.of(hostId, isolation)).mapEmpty();
  }

  /** Active (or degraded) hosts silent for longer than {@code silence} become offline; answers their ids. */
  Future<List<String>> markOffline(Duration silence) {
    String[] from = {HostLifecycle.ACTIVE, HostLifecycle.DEGRADED};
    return pool.preparedQuery(MARK_OFFLINE).execute(Tuple.of(from, (int) silence.toSeconds()))
        .map(rows -> {
          List<String> ids = new java.util.ArrayList<>();
          rows.forEach(row -> ids.add(row.getString(0)));
          return ids;
        });
  }

  /** The host's status, locked for a change in {@code tx}; 404 when there is no such host. */
  static Future<Row> lock(SqlClient tx, String hostId) {
    return tx.preparedQuery(LOCK_HOST).execute(Tuple.of(hostId)).map(rows -> {
      if (rows.size() == 0) {
        throw new NotFound("There is no host " + hostId + ".");
      }
      return rows.iterator().next();
    });
  }

  /** Moves the host from {@code from} to {@code to} if the lifecycle allows it; fails (409) otherwise. */
  static Future<Void> move(SqlClient tx, String hostId, String from, String to) {
    HostLifecycle.check(hostId, from, to);
    return moved(tx, hostId, List.of(from), to).compose(moved -> moved ? Future.succeededFuture()
        : Future.failedFuture(new Conflict("Host " + hostId + " changed meanwhile; try again.")));
  }

  private static Future<Boolean> moved(SqlClient tx, String hostId, List<String> from, String to) {
    String[] sources = from.stream().filter(status -> HostLifecycle.allows(status, to)).toArray(String[]::new);
    return tx.preparedQuery(MOVE).execute(Tuple.of(hostId, sources, to)).map(rows -> rows.size() > 0);
  }

  /** Recognises what it can of the host's GPUs; answers the nvidia-smi names no model matches. */
  static Future<List<String>> recognise(SqlClient tx, String hostId) {
    return tx.preparedQuery(RECOGNISE).execute(Tuple.of(hostId))
        .compose(v -> tx.preparedQuery(UNKNOWN_GPUS).execute(Tuple.of(hostId)))
        .map(rows -> {
          List<String> names = new java.util.ArrayList<>();
          rows.forEach(row -> names.add(row.getString(0)));
          return names;
        });
  }

  /** Revokes the host's live credential; true when there was one. */
  static Future<Boolean> revokeCredentials(SqlClient tx, String hostId) {
    return tx.preparedQuery(REVOKE_CREDENTIALS).execute(Tuple.of(hostId)).map(rows -> rows.size() > 0);
  }

  static Future<Void> insertCredential(SqlClient tx, String hostId, String credential) {
    return tx.preparedQuery(INSERT_CREDENTIAL).execute(Tuple.of(Ids.newId("hcr"), hostId, hash(credential),
        TokenSecrets.displayPrefix(credential))).mapEmpty();
  }

  private static Tuple gpuColumns(String hostId, List<HostFacts.Gpu> gpus) {
    return Tuple.of(hostId, gpus.stream().map(HostFacts.Gpu::index).toArray(Integer[]::new),
        gpus.stream().map(HostFacts.Gpu::uuid).toArray(String[]::new),
        gpus.stream().map(HostFacts.Gpu::name).toArray(String[]::new),
        gpus.stream().map(HostFacts.Gpu::memoryTotalMib).toArray(Long[]::new));
  }

  private static Buffer hash(String secret) {
    return Buffer.buffer(TokenSecrets.hash(secret));
  }

  private static boolean isUnique(Throwable failure) {
    return failure instanceof PgException pg && "23505".equals(pg.getSqlState());
  }

  private static boolean isMissingReference(Throwable failure) {
    return failure instanceof PgException pg && "23503".equals(pg.getSqlState());
  }
}
