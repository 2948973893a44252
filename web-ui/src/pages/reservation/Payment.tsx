/** The reservation's payment (status, paid, refunded), its refunds, and its extensions. */
import { formatDateTime } from '../../format';
import { formatCount, money } from '../../offers';
import { asMoney, paymentMethodLabel, paymentStatusLabel, safeCheckoutUrl } from '../../payments';
import { RefundsTable } from '../../refunds-table';
import type { Reservation, ReservationExtension } from '../../reservations';
import { StatusBadge } from '../../status-badge';

export function PaymentSection({ reservation: r }: { reservation: Reservation }) {
  const payment = r.payment ?? { method: '' };
  const currency = r.price?.total?.currency ?? null;
  const paid = asMoney(payment.amount_paid, currency) ?? (payment.status === 'succeeded' ? (r.price?.total ?? null) : null);
  const refunded = asMoney(payment.amount_refunded, currency);
  return (
    <section id="payment-section" class="section" aria-labelledby="payment-heading">
      <h2 id="payment-heading">Payment</h2>
      <dl class="details">
        <div>
          <dt>Method</dt>
          <dd id="reservation-payment">{paymentMethodLabel(payment.method)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd id="payment-status" data-status={payment.status ?? ''}>
            {payment.status ? paymentStatusLabel(payment.status) : <span class="muted">Not started</span>}
          </dd>
        </div>
        <div>
          <dt>Amount paid</dt>
          <dd id="payment-amount-paid">{paid ? money(paid) : money(currency ? { amount: 0, currency } : null)}</dd>
        </div>
        <div>
          <dt>Refunded</dt>
          <dd id="payment-refunded">{money(refunded ?? (currency ? { amount: 0, currency } : null))}</dd>
        </div>
        {payment.id && (
          <div>
            <dt>Payment ID</dt>
            <dd>
              <code id="payment-id">{payment.id}</code>
            </dd>
          </div>
        )}
      </dl>
      <h3 class="subheading">Refunds</h3>
      <RefundsTable
        id="refunds"
        refunds={payment.refunds}
        caption="Refunds of this reservation's payment"
        emptyText="No refunds."
      />
      {Array.isArray(r.extensions) && r.extensions.length > 0 && <Extensions extensions={r.extensions} />}
    </section>
  );
}

function Extensions({ extensions }: { extensions: ReservationExtension[] }) {
  return (
    <>
      <h3 id="extensions-heading" class="subheading">
        Extensions
      </h3>
      <div class="table-wrap" role="region" aria-labelledby="extensions-heading" tabIndex={0}>
        <table id="extensions" class="data-table extensions-table">
          <caption class="visually-hidden">Hours added to this reservation</caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                Hours
              </th>
              <th scope="col">Window</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Total
              </th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {extensions.map((extension) => (
              <ExtensionRow key={extension.id} extension={extension} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function ExtensionRow({ extension: e }: { extension: ReservationExtension }) {
  const checkout = e.status === 'pending_payment' ? safeCheckoutUrl(e.checkout_url) : null;
  return (
    <tr class="extension-row" data-extension-id={e.id} data-status={e.status}>
      <td class="num">{formatCount(e.hours)} h</td>
      <td>
        <time dateTime={e.start}>{formatDateTime(e.start)}</time> –{' '}
        <time dateTime={e.end}>{formatDateTime(e.end)}</time>
      </td>
      <td>
        <StatusBadge status={e.status} />
        {e.status === 'pending_payment' && e.hold_expires_at && (
          <span class="hint extension-row__hold">
            {' '}
            held until <time dateTime={e.hold_expires_at}>{formatDateTime(e.hold_expires_at)}</time>
          </span>
        )}
      </td>
      <td class="num">{money(e.total)}</td>
      <td class="extension-row__actions">
        {checkout && (
          <a class="btn btn--small btn--primary extension-pay" href={checkout} aria-label={`Pay for ${e.hours} extra hours`}>
            Pay
          </a>
        )}
      </td>
    </tr>
  );
}
