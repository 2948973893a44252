package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The SQL of image templates, the image settings and each host's image cache. */
final class ImageRepository {
  private static final String COLUMNS = """
      id, name, ref, description, default_ports, min_driver_version, min_cuda_version, is_default, created_at,
      updated_at, retired_at""";
  private static final String LIST = "SELECT " + COLUMNS + " FROM image_templates"
      + " WHERE ($1 OR retired_at IS NULL) ORDER BY retired_at IS NOT NULL, is_default DESC, lower(name), id";
  private static final String ONE = "SELECT " + COLUMNS + " FROM image_templates WHERE id = $1";
  private static final String LOCK = ONE + " FOR UPDATE";
  private static final String DEFAULT = "SELECT " + COLUMNS + " FROM image_templates"
      + " WHERE is_default AND retired_at IS NULL";
  private static final String INSERT = "INSERT INTO image_templates (id, name, ref, description, default_ports,"
      + " min_driver_version, min_cuda_version, is_default) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
      + " RETURNING " + COLUMNS;
  private static final String UPDATE = "UPDATE image_templates SET name = $2, ref = $3, description = $4,"
      + " default_ports = $5, min_driver_version = $6, min_cuda_version = $7, is_default = $8, updated_at = now()"
      + " WHERE id = $1 RETURNING " + COLUMNS;
  private static final String UNSET_DEFAULT = """
      UPDATE image_templates SET is_default = false, updated_at = now() WHERE is_default AND id <> $1""";
  private static final String RETIRE = """
      UPDATE image_templates SET retired_at = now(), is_default = false, updated_at = now()
      WHERE id = $1 AND retired_at IS NULL RETURNING\s""" + COLUMNS;
  private static final String SETTINGS = "SELECT allowed_registries, image_cache_limit_gb FROM image_settings";
  private static final String SET_SETTINGS = """
      UPDATE image_settings SET allowed_registries = $1, image_cache_limit_gb = $2, updated_at = now(), updated_by = $3
      RETURNING allowed_registries, image_cache_limit_gb""";
  private static final String LOCK_SETTINGS = SETTINGS + " FOR UPDATE";
  private static final String PRE_PULL = """
      SELECT array(SELECT ref FROM image_templates WHERE retired_at IS NULL ORDER BY is_default DESC, lower(name), id)
             AS refs, (SELECT image_cache_limit_gb FROM image_settings) AS cache_limit_gb""";
  /** Every enrolled host's desired state changes with the templates (its pre-pull list). */
  private static final String BUMP_HOSTS = """
      UPDATE hosts SET desired_version = desired_version + 1 WHERE enrolled_at IS NOT NULL RETURNING id""";
  private static final String FORGET_IMAGES = "DELETE FROM host_images WHERE host_id = $1 AND NOT (ref = ANY ($2))";
  private static final String REMEMBER_IMAGES = """
      INSERT INTO host_images (host_id, ref, digest, size_bytes, last_used_at)
      SELECT $1, r.ref, r.digest, r.size_bytes, r.last_used_at
      FROM unnest($2::text[], $3::text[], $4::bigint[], $5::timestamptz[]) AS r (ref, digest, size_bytes, last_used_at)
      ON CONFLICT (host_id, ref) DO UPDATE SET digest = EXCLUDED.digest, size_bytes = EXCLUDED.size_bytes,
        last_used_at = EXCLUDED.last_used_at, reported_at = now()
      RETURNING (xmax = 0) AS added""";

  private final Pool pool;

  ImageRepository(Pool pool) {
    this.pool = pool;
  }

  Pool pool() {
    return pool;
  }

  Future<List<Images.Template>> list(boolean withRetired) {
    return pool.preparedQuery(LIST).execute(Tuple.of(withRetired)).map(ImageRepository::templates);
  }

  Future<Optional<Images.Template>> find(String id) {
    return pool.preparedQuery(ONE).execute(Tuple.of(id)).map(rows -> templates(rows).stream().findFirst());
  }

  Future<Optional<Images.Template>> defaultTemplate() {
    return pool.preparedQuery(DEFAULT).execute().map(rows -> templates(rows).stream().findFirst());
  }

  static Future<Optional<Images.Template>> lock(SqlClient tx, String id) {
    return tx.preparedQuery(LOCK).execute(Tuple.of(id)).map(rows -> templates(rows).stream().findFirst());
  }

  static Future<Images.Template> insert(SqlClient tx, String id, Images.TemplateSpec spec) {
    return tx.preparedQuery(INSERT).execute(specTuple(id, spec)).map(rows -> templates(rows).get(0));
  }

  static Future<Images.Template> update(SqlClient tx, String id, Images.TemplateSpec spec) {
    return tx.preparedQuery(UPDATE).execute(specTuple(id, spec)).map(rows -> templates(rows).get(0));
  }

  /** Only one live default: making one the default unsets the others. */
  static Future<Void> unsetOtherDefaults(SqlClient tx, String id) {
    return tx.preparedQuery(UNSET_DEFAULT).execute(Tuple.of(id)).mapEmpty();
  }

  static Future<Optional<Images.Template>> retire(SqlClient tx, String id) {
    return tx.preparedQuery(RETIRE).execute(Tuple.of(id)).map(rows -> templates(rows).stream().findFirst());
  }

  Future<Images.Settings> settings() {
    return pool.preparedQuery(SETTINGS).execute().map(rows -> settings(rows.iterator().next()));
  }

  static Future<Images.Settings> lockSettings(SqlClient tx) {
    return tx.preparedQuery(LOCK_SETTINGS).execute().map(rows -> settings(rows.iterator().next()));
  }

  static Future<Images.Settings> setSettings(SqlClient tx, Images.Settings settings, String actor) {
    return tx.preparedQuery(SET_SETTINGS).execute(Tuple.from(new Object[] {
        settings.allowedRegistries().toArray(new String[0]), settings.imageCacheLimitGb(), actor}))
        .map(rows -> settings(rows.iterator().next()));
  }

  /** Bumps every enrolled host's desired-state version; answers their ids. */
  Future<List<String>> bumpHosts() {
    return pool.query(BUMP_HOSTS).execute().map(rows -> {
      List<String> ids = new ArrayList<>();
      rows.forEach(row -> ids.add(row.getString("id")));
      return ids;
    });
  }

  /** What every host keeps cached (every live template) and the cache's limit. */
  record PrePull(List<String> refs, int cacheLimitGb) {}

  static Future<PrePull> prePull(SqlClient client) {
    return client.preparedQuery(PRE_PULL).execute().map(rows -> {
      Row row = rows.iterator().next();
      return new PrePull(Arrays.asList(row.getArrayOfStrings("refs")), row.getInteger("cache_limit_gb"));
    });
  }

  /** Replaces the host's image cache with the reported one; answers whether its set of images changed. */
  static Future<Boolean> replaceCache(SqlClient tx, String hostId, List<Heartbeats.CachedImage> images) {
    String[] refs = images.stream().map(Heartbeats.CachedImage::ref).toArray(String[]::new);
    return tx.preparedQuery(FORGET_IMAGES).execute(Tuple.from(new Object[] {hostId, refs})).compose(forgotten -> {
      if (images.isEmpty()) {
        return Future.succeededFuture(forgotten.rowCount() > 0);
      }
      Tuple params = Tuple.from(new Object[] {hostId, refs,
          images.stream().map(Heartbeats.CachedImage::digest).toArray(String[]::new),
          images.stream().map(Heartbeats.CachedImage::sizeBytes).toArray(Long[]::new),
          images.stream().map(Heartbeats.CachedImage::lastUsedAt).toArray(OffsetDateTime[]::new)});
      return tx.preparedQuery(REMEMBER_IMAGES).execute(params).map(rows -> {
        boolean added = false;
        for (Row row : rows) {
          added |= row.getBoolean("added");
        }
        return forgotten.rowCount() > 0 || added;
      });
    });
  }

  private static Tuple specTuple(String id, Images.TemplateSpec spec) {
    return Tuple.from(new Object[] {id, spec.name(), spec.ref(), spec.description(),
        spec.defaultPorts().toArray(new Integer[0]), spec.minDriverVersion(), spec.minCudaVersion(), spec.isDefault()});
  }

  private static Images.Settings settings(Row row) {
    return new Images.Settings(Arrays.asList(row.getArrayOfStrings("allowed_registries")),
        row.getInteger("image_cache_limit_gb"));
  }

  private static List<Images.Template> templates(io.vertx.sqlclient.RowSet<Row> rows) {
    List<Images.Template> templates = new ArrayList<>();
    rows.forEach(row -> templates.add(new Images.Template(row.getString("id"), row.getString("name"),
        row.getString("ref"), row.getString("description"), Arrays.asList(row.getArrayOfIntegers("default_ports")),
        row.getString("min_driver_version"), row.getString("min_cuda_version"), row.getBoolean("is_default"),
        row.getOffsetDateTime("created_at"), row.getOffsetDateTime("updated_at"), row.getOffsetDateTime("retired_at"))));
    return templates;
  }

  /** A template as the audit log keeps it. */
  static JsonObject audit(Images.Template t) {
    return new JsonObject().put("name", t.name()).put("ref", t.ref()).put("description", t.description())
        .put("default_ports", new JsonArray(t.defaultPorts())).put("min_driver_version", t.minDriverVersion())
        .put("min_cuda_version", t.minCudaVersion()).put("is_default", t.isDefault())
        .put("retired", t.retiredAt() != null);
  }
}
