package io.gpurental.gateway.fleet;

import io.gpurental.gateway.platform.Ids;
import io.gpurental.gateway.platform.errors.Conflict;
import io.gpurental.gateway.platform.errors.Invalid;
import io.gpurental.gateway.platform.errors.NotFound;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The fleet's port for planned maintenance. A window keeps new reservations off the host: without
 * {@code drain} only reservations overlapping [starts_at, ends_at) are refused; with {@code drain}
 * the host takes no new reservation from the moment the window is saved until it ends. Existing
 * reservations that overlap the window itself are listed before anything is saved (they are not
 * cancelled: the operator decides). Every change is audited and drops the catalog cache on every
 * node ({@link HostChanges}).
 */
public final class Maintenance {
  /** The longest window; longer work is a deactivation, not maintenance. */
  public static final Duration MAX_LENGTH = Duration.ofDays(30);
  /** How far ahead a window may start. */
  public static final Duration MAX_AHEAD = Duration.ofDays(365);
  /** Clock skew tolerated for a window that starts "now". */
  private static final Duration SKEW = Duration.ofMinutes(1);

  private final Vertx vertx;
  private final MaintenanceRepository repository;
  private MaintenanceOverlaps overlaps = (tx, hostId, start, end) -> Future.succeededFuture(List.of());

  Maintenance(Vertx vertx, MaintenanceRepository repository) {
    this.vertx = vertx;
    this.repository = repository;
  }

  /** A window as asked for. */
  public record NewWindow(String hostId, OffsetDateTime startsAt, OffsetDateTime endsAt, boolean drain, String reason) {}

  /** A saved window. */
  public record Window(String id, String hostId, OffsetDateTime startsAt, OffsetDateTime endsAt, boolean drain,
      String reason, String createdBy, OffsetDateTime createdAt, OffsetDateTime cancelledAt) {
    JsonObject toAudit() {
      return new JsonObject().put("host_id", hostId).put("starts_at", startsAt.toInstant().toString())
          .put("ends_at", endsAt.toInstant().toString()).put("drain", drain).put("reason", reason)
          .put("cancelled_at", cancelledAt == null ? null : cancelledAt.toInstant().toString());
    }
  }

  /** A live reservation the window overlaps. */
  public record Overlap(String reservationId, String status, OffsetDateTime start, OffsetDateTime end, int gpuCount) {
    public JsonObject toJson() {
      return new JsonObject().put("id", reservationId).put("status", status)
          .put("window", new JsonObject().put("start", start.toInstant().toString()).put("end", end.toInstant().toString()))
          .put("gpu_count", gpuCount);
    }
  }

  /** What scheduling did: the window (null for a dry run) and the reservations it overlaps. */
  public record Outcome(Window window, List<Overlap> overlaps) {}

  /** Registers who lists the reservations a window overlaps (reservations, at boot). */
  public void listOverlapsWith(MaintenanceOverlaps overlaps) {
    this.overlaps = overlaps;
  }

  /**
   * Lists the overlapping reservations and, unless {@code dryRun}, saves the window: 409 naming
   * them when there are some and they are not {@code acknowledged}, in which case nothing is saved.
   */
  public Future<Outcome> schedule(NewWindow asked, boolean acknowledged, boolean dryRun, String actor) {
    validate(asked);
    Future<Outcome> done = repository.pool().withTransaction(tx -> MaintenanceRepository.lockCapacity(tx, asked.hostId())
        .compose(v -> overlaps.overlapping(tx, asked.hostId(), asked.startsAt(), asked.endsAt()))
        .compose(found -> {
          if (dryRun) {
            return Future.succeededFuture(new Outcome(null, found));
          }
          if (!found.isEmpty() && !acknowledged) {
            return Future.failedFuture(new Conflict(found.size() + " reservation(s) overlap this window; nothing was"
                + " saved. Repeat with \"acknowledge_overlaps\": true to schedule it anyway.",
                new JsonObject().put("overlapping_reservations", json(found))));
          }
          return MaintenanceRepository.insert(tx, Ids.newId("mnt"), asked, actor).map(saved -> new Outcome(saved, found));
        }));
    return done.onSuccess(outcome -> {
      if (outcome.window() != null) {
        HostChanges.publishMaintenance(vertx, asked.hostId());
      }
    });
  }

  /** The host's upcoming and current windows, soonest first; 404 for an unknown host. */
  public Future<List<Window>> inForce(String hostId) {
    return MaintenanceRepository.requireHost(repository.pool(), hostId).compose(v -> repository.inForce(hostId));
  }

  /** Cancels an upcoming or current window (its hours become bookable again); 409 once over or cancelled. */
  public Future<Window> cancel(String hostId, String maintenanceId, String actor) {
    return repository.pool().withTransaction(tx -> MaintenanceRepository.lockCapacity(tx, hostId)
        .compose(v -> MaintenanceRepository.find(tx, hostId, maintenanceId))
        .compose(found -> {
          Window window = found.orElseThrow(() -> new NotFound("Host " + hostId + " has no maintenance window "
              + maintenanceId + "."));
          if (window.cancelledAt() != null) {
            throw new Conflict("Maintenance window " + maintenanceId + " was cancelled already.");
          }
          if (!window.endsAt().isAfter(OffsetDateTime.now())) {
            throw new Conflict("Maintenance window " + maintenanceId + " is over.");
          }
          return MaintenanceRepository.cancel(tx, window, actor);
        }))
        .onSuccess(v -> HostChanges.publishMaintenance(vertx, hostId));
  }

  private static void validate(NewWindow asked) {
    OffsetDateTime now = OffsetDateTime.now();
    List<Invalid.FieldError> errors = new ArrayList<>();
    if (!asked.endsAt().isAfter(asked.startsAt())) {
      errors.add(new Invalid.FieldError("#/ends_at", "must be after starts_at"));
    } else if (Duration.between(asked.startsAt(), asked.endsAt()).compareTo(MAX_LENGTH) > 0) {
      errors.add(new Invalid.FieldError("#/ends_at", "a window lasts at most " + MAX_LENGTH.toDays() + " days"));
    }
    if (asked.startsAt().isBefore(now.minus(SKEW))) {
      errors.add(new Invalid.FieldError("#/starts_at", "must not be in the past"));
    } else if (asked.startsAt().isAfter(now.plus(MAX_AHEAD))) {
      errors.add(new Invalid.FieldError("#/starts_at", "must be within " + MAX_AHEAD.toDays() + " days from now"));
    }
    if (asked.reason().isBlank()) {
      errors.add(new Invalid.FieldError("#/reason", "must say why"));
    }
    if (!errors.isEmpty()) {
      throw new Invalid("The maintenance window is not valid.", errors);
    }
  }

  private static JsonArray json(List<Overlap> overlaps) {
    JsonArray array = new JsonArray();
    overlaps.forEach(overlap -> array.add(overlap.toJson()));
    return array;
  }
}
