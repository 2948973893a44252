package io.gpurental.gateway.reservations;

import io.gpurental.gateway.catalog.CatalogChanges;
import io.gpurental.gateway.fleet.Fleet;
import io.gpurental.gateway.payments.Payments;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.SqlConnection;
import java.time.Instant;
import java.util.List;

/**
 * A host that cannot serve a paid reservation: it fails, its GPUs are released, and the hours not
 * delivered (from when service stopped to the window's end, every started hour) are refunded to
 * the card as an itemized downtime credit without anyone asking.
 */
final class HostFailures {
  private final Vertx vertx;
  private final ReservationRepository repository;
  private final Payments payments;
  private final Fleet instances;

  HostFailures(Vertx vertx, ReservationRepository repository, Payments payments, Fleet instances) {
    this.vertx = vertx;
    this.repository = repository;
    this.payments = payments;
    this.instances = instances;
  }

  /** A reservation failed in a transaction: whose it is and the refunds to execute after commit. */
  record Failed(String id, String accountId, List<String> refunds) {}

  /** The host reported the instance failed: not served from now on, or since it was interrupted. */
  Future<Boolean> failed(String id, String reason) {
    return repository.pool().withTransaction(tx -> CreditRepository.lock(tx, id).compose(found -> {
      CreditRepository.Basis basis = found.orElse(null);
      if (basis == null || !basis.status().paidAndLive()) {
        return Future.succeededFuture((Failed) null);
      }
      Instant since = basis.interruptedSince() != null ? basis.interruptedSince() : Instant.now();
      return CreditRepository.clearInterruption(tx, id)
          .compose(v -> fail(tx, id, basis, "host failure: " + reason, since));
    })).compose(this::announce);
  }

  /**
   * Fails the locked, paid and live reservation in {@code tx}: credits every started hour from
   * {@code since} (or the start, if later) to the end, and releases its GPUs.
   */
  Future<Failed> fail(SqlConnection tx, String id, CreditRepository.Basis basis, String cause, Instant since) {
    Instant from = since.isBefore(basis.start()) ? basis.start() : since;
    int hours = Credits.startedHours(from, basis.end());
    return Credits.grant(tx, id, basis, Credits.HOST_FAILED, cause, from, basis.end(), hours)
        .compose(refunds -> ReservationRepository.transition(tx, id, basis.status(), ReservationStatus.FAILED,
                cause + "; " + hours + " h not delivered, credited", true)
            .map(moved -> moved ? new Failed(id, basis.accountId(), refunds) : null));
  }

  /** After commit: the catalog, the host (nothing of it is wanted any more), the refunds, the renter. */
  Future<Boolean> announce(Failed failed) {
    if (failed == null) {
      return Future.succeededFuture(false);
    }
    CatalogChanges.publish(vertx, "reservation failed");
    instances.stop(failed.id());
    return payments.executeRefunds(failed.refunds())
        .onComplete(v -> ReservationEvents.publish(vertx, failed.id(), failed.accountId(),
            ReservationStatus.FAILED.id()))
        .map(true);
  }
}
