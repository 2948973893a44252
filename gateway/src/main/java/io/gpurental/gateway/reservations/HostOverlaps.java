package io.gpurental.gateway.reservations;

import io.gpurental.gateway.fleet.Maintenance;
import io.gpurental.gateway.fleet.MaintenanceOverlaps;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import java.time.OffsetDateTime;
import java.util.List;

/** Tells the fleet which live reservations a planned maintenance window would hit. */
final class HostOverlaps implements MaintenanceOverlaps {
  @Override
  public Future<List<Maintenance.Overlap>> overlapping(SqlClient tx, String hostId, OffsetDateTime start,
      OffsetDateTime end) {
    return ReservationGpuRepository.overlapping(tx, hostId, start, end);
  }
}
