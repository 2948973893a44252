package io.gpurental.gateway.catalog;

import io.gpurental.gateway.platform.audit.AuditLog;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

/**
 * The catalog's port for the operator: which GPU model an nvidia-smi name means. A mapped name
 * becomes an exact, case-insensitive pattern of the model (the fleet recognises GPUs by them).
 */
public final class GpuModels {
  private static final String ADD_MODEL = """
      INSERT INTO gpu_models (name, vram_gb, architecture) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING""";
  private static final String ADD_PATTERN = """
      UPDATE gpu_models SET nvidia_smi_patterns = CASE WHEN $2 = ANY (nvidia_smi_patterns) THEN nvidia_smi_patterns
                                                       ELSE array_append(nvidia_smi_patterns, $2) END
      WHERE name = $1 RETURNING name""";
  private final Vertx vertx;
  private final Pool pool;

  GpuModels(Vertx vertx, Pool pool) {
    this.vertx = vertx;
    this.pool = pool;
  }

  /** A model to add when the name maps to one the catalog does not have yet. */
  public record NewModel(int vramGb, String architecture) {}

  /** Maps the nvidia-smi name to the model (added first when {@code newModel} is given); 404 for an unknown model. */
  public Future<Void> mapName(String nvidiaSmiName, String model, NewModel newModel, String actor) {
    String pattern = "^" + nvidiaSmiName.trim().replaceAll("[\\\\^$.|?*+()\\[\\]{}]", "\\\\$0") + "$";
    return pool.withTransaction(tx -> (newModel == null ? Future.succeededFuture()
            : tx.preparedQuery(ADD_MODEL).execute(Tuple.of(model, newModel.vramGb(), newModel.architecture())))
        .compose(v -> tx.preparedQuery(ADD_PATTERN).execute(Tuple.of(model, pattern)))
        .compose(rows -> {
          if (rows.size() == 0) {
            throw new NotFound("There is no GPU model '" + model + "'; give vram_gb and architecture to add it.");
          }
          return AuditLog.append(tx, actor, "gpu_model.name_mapped", model, null,
              new JsonObject().put("nvidia_smi_name", nvidiaSmiName).put("pattern", pattern)
                  .put("added_model", newModel != null));
        }))
        .onSuccess(v -> CatalogChanges.publish(vertx, "gpu model mapped"));
  }
}
