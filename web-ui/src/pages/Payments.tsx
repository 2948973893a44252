import { useRef } from 'preact/hooks';
import { formatDateTime } from '../format';
import { LoadMore } from '../load-more';
import { catalogHref } from '../catalog-filters';
import { money } from '../offers';
import { usePagedList } from '../paged-list';
import {
  asMoney,
  listPayments,
  paymentMethodLabel,
  paymentStatusLabel,
  type Payment,
} from '../payments';
import { ItemsTable } from '../price-table';
import { ProblemAlert, problemFrom } from '../problem';
import { RefundsTable } from '../refunds-table';
import { handleSessionEnded, reservationHref } from '../reservations';
import { Link } from '../router';
import { SignedInPage } from '../signed-in';
import './Payments.css';

/** `/payments`: your card payments, newest first, with receipts and refunds. */
export function PaymentsPage() {
  return (
    <SignedInPage
      title="Payments"
      loadingText="Loading your payments…"
      signInText="Sign in to see your payments, receipts and refunds."
      returnTo="/payments"
      idPrefix="payments"
    >
      {(me) => <PaymentList accountId={me.id} />}
    </SignedInPage>
  );
}

function PaymentList({ accountId }: { accountId: string }) {
  const listRef = useRef<HTMLOListElement>(null);
  const { items, nextCursor, loading, problem, loadingMore, moreError, summary, reload, loadMore } = usePagedList({
    fetchPage: listPayments,
    deps: [accountId],
    noun: 'payment',
    emptyText: 'You have no payments yet.',
    loadProblem: (caught) => problemFrom(caught, 'request failed', 'Could not load your payments'),
    moreProblem: (caught) => problemFrom(caught, 'request failed').message,
    handled: handleSessionEnded,
    focusItem: (index) => listRef.current?.querySelectorAll<HTMLElement>('.payment-item__title')[index]?.focus(),
  });

  return (
    <>
      <h1>Payments</h1>
      <p class="lead">Your card payments, newest first, with what they paid for and any refunds.</p>
      <section id="payments-results" class="section" aria-labelledby="payments-results-heading" aria-busy={loading ? 'true' : undefined}>
        <h2 id="payments-results-heading" class="visually-hidden">
          All payments
        </h2>
        <p id="payments-summary" class="catalog-status muted" role="status" aria-live="polite">
          {summary}
        </p>
        {problem ? (
          <ProblemAlert problem={problem}>
            <button type="button" class="btn" onClick={reload}>
              Try again
            </button>
          </ProblemAlert>
        ) : items === null ? null : items.length === 0 ? (
          <div id="payments-empty" class="empty-state">
            <p>You have no payments yet. Payments appear here once you pay for a reservation.</p>
            <p>
              <Link href={catalogHref()}>Browse the catalog</Link> to rent GPUs.
            </p>
          </div>
        ) : (
          <>
            <ol id="payments-list" class="payment-list" ref={listRef}>
              {items.map((payment) => (
                <PaymentItem key={payment.id} payment={payment} />
              ))}
            </ol>
            {nextCursor && (
              <LoadMore id="payments-load-more" loading={loadingMore} error={moreError} onLoad={() => void loadMore()} />
            )}
          </>
        )}
      </section>
    </>
  );
}

function PaymentItem({ payment: p }: { payment: Payment }) {
  const amount = asMoney(p.amount, p.currency);
  const refunded = asMoney(p.amount_refunded, p.currency);
  const headingId = `payment-${p.id}-heading`;
  const items = Array.isArray(p.receipt?.items) ? p.receipt.items : [];
  const receiptTotal = asMoney(p.receipt?.total, p.currency) ?? amount;
  return (
    <li class="payment-item panel" data-payment-id={p.id} data-status={p.status}>
      <article aria-labelledby={headingId}>
        <h2 id={headingId} class="payment-item__title" tabIndex={-1}>
          <span class="payment-item__amount">{money(amount)}</span>{' '}
          <span class="payment-item__date muted">
            <time dateTime={p.created_at}>{formatDateTime(p.created_at)}</time>
          </span>
        </h2>
        <dl class="details payment-item__details">
          <div>
            <dt>Reservation</dt>
            <dd>
              <Link class="payment-item__reservation" href={reservationHref(p.reservation_id)}>
                <code>{p.reservation_id}</code>
              </Link>
              {p.extension_id && <span class="muted"> (extension)</span>}
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd class="payment-item__status" data-status={p.status}>
              {paymentStatusLabel(p.status)}
              {p.failure?.message && <span class="muted"> — {p.failure.message}</span>}
            </dd>
          </div>
          <div>
            <dt>Refunded</dt>
            <dd class="payment-item__refunded">{money(refunded)}</dd>
          </div>
          {p.method && (
            <div>
              <dt>Method</dt>
              <dd class="payment-item__method">{paymentMethodLabel(p.method)}</dd>
            </div>
          )}
          <div>
            <dt>Payment ID</dt>
            <dd>
              <code>{p.id}</code>
            </dd>
          </div>
        </dl>
        {items.length > 0 && receiptTotal && (
          <>
            <h3 class="subheading">Receipt</h3>
            <ItemsTable
              id={`receipt-${p.id}`}
              items={items}
              total={receiptTotal}
              caption={`What payment ${p.id} paid for, item by item`}
            />
          </>
        )}
        {Array.isArray(p.refunds) && p.refunds.length > 0 && (
          <>
            <h3 class="subheading">Refunds</h3>
            <RefundsTable id={`refunds-${p.id}`} refunds={p.refunds} caption={`Refunds of payment ${p.id}`} />
          </>
        )}
      </article>
    </li>
  );
}
