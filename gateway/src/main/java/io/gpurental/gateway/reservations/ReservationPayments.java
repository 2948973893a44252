package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.payments.PaymentOutcomes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.SqlConnection;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a payment does to the reservation (or extension) it paid for, inside the payment's own
 * transaction. A payment that arrives after its hold lapsed still confirms when the same GPUs are
 * free; otherwise the caller refunds it. An extension's payment counts only while the reservation's
 * window is still open: paid after the end, it is refunded and the reservation stays ended.
 */
final class ReservationPayments implements PaymentOutcomes {
  /** Statuses whose instance is in its host's desired state (a confirmed payment then paid an extension). */
  private static final Set<String> ON_ITS_HOST = Set.of(ReservationStatus.PROVISIONING.id(),
      ReservationStatus.RUNNING.id());
  private static final Logger LOG = LoggerFactory.getLogger(ReservationPayments.class);
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Fleet fleet;

  ReservationPayments(Vertx vertx, ReservationRepository repository, Fleet fleet) {
    this.vertx = vertx;
    this.repository = repository;
    this.fleet = fleet;
  }

  @Override
  public Future<Void> lock(SqlConnection tx, String reservationId) {
    return ReservationRepository.lockRow(tx, reservationId);
  }

  /**
   * After the payment's commit: its reservation's watchers are told, and a paid extension of an
   * instance already on its host moves the end in the host's desired state.
   */
  @Override
  public void announce(Paid paid) {
    ReservationEvents.publish(vertx, paid.reservationId(), paid.accountId(), paid.status());
    CatalogChanges.publish(vertx, "reservation paid");
    if (paid.confirmed() && ON_ITS_HOST.contains(paid.status())) {
      repository.find(repository.pool(), paid.reservationId(), null, true)
          .compose(found -> found.isEmpty() ? Future.succeededFuture()
              : fleet.extend(paid.reservationId(), found.get().end()))
          .onFailure(e -> LOG.warn("The host of {} was not told its new end (the gateway still ends the window"
              + " on time): {}", paid.reservationId(), e.getMessage()));
    }
  }

  @Override
  public Future<Paid> paid(SqlConnection tx, String reservationId, String extensionId, String cause) {
    return extensionId == null ? reservationPaid(tx, reservationId, cause)
        : extensionPaid(tx, reservationId, extensionId, cause);
  }

  /** A payment that failed for good: an unpaid hold is released at once. */
  @Override
  public Future<Void> unpaid(SqlConnection tx, String reservationId, String extensionId, String cause) {
    if (extensionId != null) {
      return ExtensionRepository.cancelUnpaid(tx, extensionId);
    }
    return ReservationRepository.transition(tx, reservationId, ReservationStatus.PENDING_PAYMENT, ReservationStatus.CANCELLED, cause,
        true).mapEmpty();
  }

  private static Future<Paid> reservationPaid(SqlConnection tx, String id, String cause) {
    return ReservationRepository.lockForPayment(tx, id).compose(row -> {
      ReservationStatus status = row.status();
      String account = row.accountId();
      if (status == ReservationStatus.PENDING_PAYMENT) {
        return ReservationRepository.transition(tx, id, status, ReservationStatus.CONFIRMED, cause, false)
            .map(v -> new Paid(true, account, id, ReservationStatus.CONFIRMED.id()));
      }
      if (status == ReservationStatus.EXPIRED && row.windowOpen()) {
        return ReservationGpuRepository.reclaimGpus(tx, id).compose(reclaimed -> !reclaimed
            ? Future.succeededFuture(new Paid(false, account, id, status.id()))
            : ReservationRepository.transition(tx, id, status, ReservationStatus.CONFIRMED,
                    cause + ", after the hold lapsed; the GPUs were still free", false)
                .map(v -> new Paid(true, account, id, ReservationStatus.CONFIRMED.id())));
      }
      return Future.succeededFuture(new Paid(false, account, id, status.id()));
    });
  }

  private static Future<Paid> extensionPaid(SqlConnection tx, String id, String extensionId, String cause) {
    return ReservationRepository.lockForPayment(tx, id).compose(row -> ExtensionRepository.lock(tx, extensionId)
        .compose(extension -> {
          String account = row.accountId();
          String status = row.status().id();
          String extensionStatus = extension.status();
          // the window ends on time: a payment for more hours that arrives after it ended buys nothing
          boolean live = row.status().paidAndLive() && row.windowOpen();
          Future<Boolean> held = !live ? Future.succeededFuture(false)
              : "pending_payment".equals(extensionStatus) ? Future.succeededFuture(true)
              : "expired".equals(extensionStatus) && extension.windowOpen()
                  ? ReservationGpuRepository.reclaimExtensionGpus(tx, extensionId) : Future.succeededFuture(false);
          return held.compose(ok -> !ok ? Future.succeededFuture(new Paid(false, account, id, status))
              : ExtensionRepository.confirm(tx, id, extensionId, extension.ends())
                  .compose(v -> ReservationRepository.event(tx, id, status, status, "extended by "
                      + extension.hours() + " h (" + cause + ")"))
                  .map(v -> new Paid(true, account, id, status)));
        }));
  }
}
