package io.gpurental.gateway.catalog;

import io.gpurental.gateway.fleet.Hosts;
import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Invalid;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog's port for the operator: a host's offer is opened when the host is activated (the
 * GPU counts a reservation may take, each GPU's share of the host, optionally its own price) and
 * closed when it is deactivated. The catalog lists it only while the fleet says the host is active.
 */
public final class Offers {
  private static final List<Integer> DEFAULT_COUNTS = List.of(1, 2, 4, 8);
  /** The offer's isolation: each renter in a container of their own, or the whole host to one renter. */
  public static final String CONTAINER = "container";
  public static final String WHOLE_HOST = "whole_host";
  private static final String UPSERT = """
      INSERT INTO offers (id, host_id, gpu_counts, cpu_cores_per_gpu, ram_gb_per_gpu, nvme_gb_per_gpu, isolation)
      VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT (host_id) DO UPDATE SET gpu_counts = EXCLUDED.gpu_counts, cpu_cores_per_gpu = EXCLUDED.cpu_cores_per_gpu,
        ram_gb_per_gpu = EXCLUDED.ram_gb_per_gpu, nvme_gb_per_gpu = EXCLUDED.nvme_gb_per_gpu,
        isolation = EXCLUDED.isolation, closed_at = NULL
      RETURNING id""";
  private static final String OWN_PRICE = """
      INSERT INTO prices (offer_id, amount_per_gpu_hour, currency, effective_from, set_by) VALUES ($1, $2, $3, now(), $4)""";
  /** Whether a price applies to the offer, by the one rule ({@code offer_prices_view}). */
  private static final String HAS_PRICE = "SELECT 1 FROM offer_prices_view WHERE offer_id = $1";
  private static final String CLOSE = "UPDATE offers SET closed_at = now() WHERE host_id = $1 AND closed_at IS NULL RETURNING id";
  private static final String OF_HOSTS = """
      SELECT host_id, array_agg(id ORDER BY created_at) AS ids FROM offers WHERE host_id = ANY ($1) GROUP BY host_id""";

  private final Vertx vertx;
  private final Pool pool;

  private final OfferFigures figures;

  Offers(Vertx vertx, Pool pool, OfferFigures figures) {
    this.vertx = vertx;
    this.pool = pool;
    this.figures = figures;
  }

  /** A price per GPU-hour in minor units. */
  public record Price(long amount, String currency) {}

  /**
   * Opens (or reopens) the host's offer; answers its id. Without {@code gpuCounts}: 1, 2, 4 and 8
   * up to the GPUs present; without {@code price}: the model's default at the site, 409 if none.
   */
  public Future<String> open(Hosts.ActivationFacts host, List<Integer> gpuCounts, Optional<Price> price, String actor) {
    List<Integer> counts = host.rentedWhole() ? whole(host.gpuCount(), gpuCounts) : counts(host.gpuCount(), gpuCounts);
    int gpus = host.gpuCount();
    Tuple offer = Tuple.from(new Object[] {Ids.newId("off"), host.hostId(), counts.toArray(new Integer[0]),
        Math.max(1, host.cpuCores() / gpus), Math.max(1, host.ramGb() / gpus), Math.max(1, host.nvmeGb() / gpus),
        host.rentedWhole() ? WHOLE_HOST : CONTAINER});
    return pool.withTransaction(tx -> tx.preparedQuery(UPSERT).execute(offer).compose(rows -> {
      String offerId = rows.iterator().next().getString("id");
      Future<Void> priced = price.isPresent()
          ? tx.preparedQuery(OWN_PRICE).execute(Tuple.of(offerId, price.get().amount(), price.get().currency(), actor))
              .mapEmpty()
          : requireDefaultPrice(tx, offerId, host);
      return priced.compose(v -> AuditLog.append(tx, actor, "offer.opened", offerId, null, new JsonObject()
              .put("host_id", host.hostId()).put("gpu_counts", counts)
              .put("isolation", host.rentedWhole() ? WHOLE_HOST : CONTAINER)
              .put("price", price.map(p -> new JsonObject().put("amount", p.amount()).put("currency", p.currency()))
                  .orElse(null))))
          .map(offerId);
    })).onSuccess(id -> figures.refreshHost(host.hostId()))
        .onSuccess(id -> CatalogChanges.publish(vertx, "offer opened"));
  }

  /** Closes the host's offer (reservations made on it stay). */
  public Future<Void> close(String hostId, String actor) {
    return pool.withTransaction(tx -> tx.preparedQuery(CLOSE).execute(Tuple.of(hostId)).compose(rows -> rows.size() == 0
        ? Future.<Void>succeededFuture()
        : AuditLog.append(tx, actor, "offer.closed", rows.iterator().next().getString("id"), null,
            new JsonObject().put("host_id", hostId))))
        .onSuccess(v -> CatalogChanges.publish(vertx, "offer closed"));
  }

  /** The ids of each host's offers, open or closed. */
  public Future<Map<String, List<String>>> ofHosts(List<String> hostIds) {
    return pool.preparedQuery(OF_HOSTS).execute(Tuple.of(hostIds.toArray(new String[0]))).map(rows -> {
      Map<String, List<String>> ids = new HashMap<>();
      rows.forEach(row -> ids.put(row.getString("host_id"), Arrays.asList(row.getArrayOfStrings("ids"))));
      return ids;
    });
  }

  private static Future<Void> requireDefaultPrice(SqlClient tx, String offerId, Hosts.ActivationFacts host) {
    return tx.preparedQuery(HAS_PRICE).execute(Tuple.of(offerId)).map(rows -> {
      if (rows.size() == 0) {
        throw new Conflict("There is no default price for " + host.gpuModel() + " at site " + host.siteId()
            + "; activate with price_per_gpu_hour.");
      }
      return null;
    });
  }

  /** A host rented whole sells all its GPUs at once, nothing less (one renter at a time). */
  private static List<Integer> whole(int gpus, List<Integer> asked) {
    if (asked != null && !asked.isEmpty() && !asked.stream().distinct().toList().equals(List.of(gpus))) {
      throw new Invalid("This host runs instances as processes (no isolation between renters), so it is rented only"
          + " whole: gpu_counts can only be [" + gpus + "].",
          List.of(new Invalid.FieldError("#/gpu_counts", "a process-runtime host is rented whole: only " + gpus)));
    }
    return List.of(gpus);
  }

  private static List<Integer> counts(int gpus, List<Integer> asked) {
    if (asked == null || asked.isEmpty()) {
      return DEFAULT_COUNTS.stream().filter(count -> count <= gpus).toList();
    }
    List<Integer> counts = asked.stream().distinct().sorted().toList();
    if (counts.get(counts.size() - 1) > gpus) {
      throw new Invalid("The host has " + gpus + " GPUs; gpu_counts cannot exceed that.",
          List.of(new Invalid.FieldError("#/gpu_counts", "each count must be at most " + gpus)));
    }
    return counts;
  }
}
