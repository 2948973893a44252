package io.gpurental.bench;

import io.vertx.sqlclient.Pool;

/**
 * Pairs of active bookings of one GPU whose periods overlap, among those the holds made (after
 * the seeded ones): the exclusion constraint allows none; the harness counts them anyway.
 */
final class Overlaps {
  private static final String COUNT = """
      SELECT count(*) FROM reservation_gpus a JOIN reservation_gpus b
        ON b.gpu_id = a.gpu_id AND b.ctid <> a.ctid AND b.active AND b.period && a.period
      WHERE a.active AND lower(a.period) > now() + interval '14 days'""";

  private Overlaps() {}

  static long count(Pool pool) {
    return pool.query(COUNT).execute().await().iterator().next().getLong(0);
  }
}
