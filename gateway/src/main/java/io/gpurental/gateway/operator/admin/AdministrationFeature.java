package io.gpurental.gateway.operator.admin;

import io.gpurental.gateway.auth.AccountAdmin;
import io.gpurental.gateway.payments.Payments;
import io.gpurental.gateway.payments.PaymentsOversight;
import io.gpurental.gateway.platform.Feature;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.sqlclient.Pool;

/**
 * The operator's administration: accounts (auth's {@link AccountAdmin}), every renter's
 * reservations (the views reservations and auth publish), manual refunds and credits (payments'
 * refund path) and the ledger check with the reconciliation status ({@link PaymentsOversight}).
 */
public final class AdministrationFeature implements Feature {
  private final AccountsAdminApi accounts;
  private final ReservationsAdminApi reservations;
  private final LedgerAdminApi ledger;

  public AdministrationFeature(Pool pool, AccountAdmin accounts, Payments payments, PaymentsOversight oversight) {
    this.accounts = new AccountsAdminApi(accounts);
    this.reservations = new ReservationsAdminApi(new AdminRepository(pool), payments);
    this.ledger = new LedgerAdminApi(oversight);
  }

  @Override
  public void bind(RouterBuilder api) {
    accounts.bind(api);
    reservations.bind(api);
    ledger.bind(api);
  }
}
