package io.gpurental.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's pgbench running the hold's SQL (the gateway's statements for a hold and its
 * release: the host's capacity lock, the maintenance check, the free GPUs picked and inserted
 * under the exclusion constraint, the reservation and its events) at the same concurrency: the
 * floor for the hold scenario. pgbench is not part of the embedded PostgreSQL the gateway runs, so
 * the one on the PATH (Debian's postgresql-client) is used; without it the floor is reported missing.
 */
final class PgBench {
  /** One iteration: the hold's transaction, then the release's, like POST /reservations and its cancel. */
  static final String SCRIPT = """
      \\set h random(1, :hosts)
      \\set slot random(0, 47)
      \\set n random(1, 4)
      \\set r1 random(1, 2000000000)
      \\set r2 random(1, 2000000000)
      BEGIN;
      SELECT pg_advisory_xact_lock(hashtextextended('host-capacity' || ':' || 'host_b' || :h::bigint, 0));
      WITH w AS (SELECT 'rsv_pgb' || :client_id::bigint || '_' || :r1::bigint || '_' || :r2::bigint AS id, 'host_b' || :h::bigint AS host, tstzrange(to_timestamp(:base::bigint + :slot::bigint * 3600), to_timestamp(:base::bigint + :slot::bigint * 3600 + 14400)) AS period) SELECT m.id FROM w, maintenance_windows_view m WHERE m.host_id = w.host AND m.blocked && w.period ORDER BY m.starts_at, m.id LIMIT 1;
      WITH w AS (SELECT 'rsv_pgb' || :client_id::bigint || '_' || :r1::bigint || '_' || :r2::bigint AS id, 'host_b' || :h::bigint AS host, tstzrange(to_timestamp(:base::bigint + :slot::bigint * 3600), to_timestamp(:base::bigint + :slot::bigint * 3600 + 14400)) AS period) INSERT INTO reservations (id, account_id, offer_id, host_id, gpu_count, period, status, hold_expires_at, quote_id, price, total_amount, currency, ssh_public_key, ssh_fingerprint, payment_method) SELECT w.id, 'acc_bench', 'off_b' || :h::bigint, w.host, :n::bigint, w.period, 'pending_payment', now() + interval '15 minutes', 'quo_pgbench', '{}', 1000, 'usd', 'ssh-ed25519 AAAA bench', 'SHA256' || ':' || 'bench', 'checkout' FROM w;
      WITH w AS (SELECT 'rsv_pgb' || :client_id::bigint || '_' || :r1::bigint || '_' || :r2::bigint AS id, 'host_b' || :h::bigint AS host, tstzrange(to_timestamp(:base::bigint + :slot::bigint * 3600), to_timestamp(:base::bigint + :slot::bigint * 3600 + 14400)) AS period) INSERT INTO reservation_gpus (reservation_id, gpu_id, period) SELECT w.id, g.gpu_id, w.period FROM w, host_gpus_view g WHERE g.host_id = w.host AND g.host_status = 'active' AND g.health = 'healthy' AND NOT EXISTS (SELECT 1 FROM reservation_gpus x WHERE x.gpu_id = g.gpu_id AND x.active AND x.period && w.period) ORDER BY g.idx LIMIT :n::bigint;
      INSERT INTO reservation_events (reservation_id, from_status, to_status, cause) VALUES ('rsv_pgb' || :client_id::bigint || '_' || :r1::bigint || '_' || :r2::bigint, NULL, 'pending_payment', 'pgbench');
      COMMIT;
      BEGIN;
      SELECT id, status FROM reservations WHERE id = 'rsv_pgb' || :client_id::bigint || '_' || :r1::bigint || '_' || :r2::bigint FOR UPDATE;
      UPDATE reservation_gpus SET active = false WHERE reservation_id = 'rsv_pgb' || :client_id::bigint || '_' || :r1::bigint || '_' || :r2::bigint;
      UPDATE reservations SET status = 'cancelled', updated_at = now() WHERE id = 'rsv_pgb' || :client_id::bigint || '_' || :r1::bigint || '_' || :r2::bigint;
      INSERT INTO reservation_events (reservation_id, from_status, to_status, cause) VALUES ('rsv_pgb' || :client_id::bigint || '_' || :r1::bigint || '_' || :r2::bigint, 'pending_payment', 'cancelled', 'pgbench');
      COMMIT;
      """;
  private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+)");
  private static final Pattern LATENCY = Pattern.compile("latency average = ([0-9.]+) ms");

  /** What pgbench measured: iterations (hold + release) per second and their mean latency. */
  record Outcome(double tps, double latencyMs, String output) {}

  private PgBench() {}

  /** The pgbench on the PATH, if any. */
  static Optional<Path> binary() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path candidate = Path.of(dir, "pgbench");
      if (!dir.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  static Outcome run(Path pgbench, Path work, int pgPort, int hosts, long baseEpoch, int clients, int seconds)
      throws IOException, InterruptedException {
    Path script = work.resolve("hold.pgbench");
    Files.writeString(script, SCRIPT);
    Path log = work.resolve("pgbench-" + hosts + ".log");
    Process process = new ProcessBuilder(List.of(pgbench.toString(), "-h", Loopback.HOST, "-p",
        Integer.toString(pgPort), "-U", "postgres", "-n", "-M", "prepared", "-c", Integer.toString(clients), "-j", "2",
        "-T", Integer.toString(seconds), "-D", "hosts=" + hosts, "-D", "base=" + baseEpoch, "-f", script.toString(),
        "postgres")).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    int exit = process.waitFor();
    String output = Files.readString(log);
    Matcher tps = TPS.matcher(output);
    Matcher latency = LATENCY.matcher(output);
    if (exit != 0 || !tps.find()) {
      throw new IllegalStateException("pgbench failed (exit " + exit + "), see " + log + ":\n" + output);
    }
    return new Outcome(Double.parseDouble(tps.group(1)), latency.find() ? Double.parseDouble(latency.group(1)) : -1,
        output);
  }
}
