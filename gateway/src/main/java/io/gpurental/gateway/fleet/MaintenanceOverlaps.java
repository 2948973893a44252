package io.gpurental.gateway.fleet;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * Which reservations a planned maintenance window would hit. The fleet owns this port and knows
 * nothing of reservations; reservations implements it and is registered at boot through
 * {@link Maintenance#listOverlapsWith}. It runs inside the fleet's transaction, after the host's
 * capacity lock is taken, so no reservation can slip in between the listing and the save.
 */
public interface MaintenanceOverlaps {
  /** The live (held or paid, not over) reservations on {@code hostId} that overlap [start, end). */
  Future<List<Maintenance.Overlap>> overlapping(SqlClient tx, String hostId, OffsetDateTime start, OffsetDateTime end);
}
