import { useEffect, useRef, useState } from 'preact/hooks';
import { signInPageHref } from '../auth';
import { formatDateTime } from '../format';
import { LoadMore } from '../load-more';
import { catalogHref, formatCount, isAbort, money } from '../offers';
import {
  asMoney,
  listPayments,
  paymentMethodLabel,
  paymentStatusLabel,
  type Payment,
} from '../payments';
import { ItemsTable } from '../price-table';
import { ProblemAlert, problemFrom, type ShownProblem } from '../problem';
import { RefundsTable } from '../refunds-table';
import { handleSessionEnded, reservationHref } from '../reservations';
import { Link } from '../router';
import { useSession } from '../session';

/** `/payments`: your card payments, newest first, with receipts and refunds. */
export function PaymentsPage() {
  const session = useSession();

  if (session.loading && !session.me) {
    return (
      <>
        <h1>Payments</h1>
        <p class="muted" role="status">
          Loading your payments…
        </p>
      </>
    );
  }

  if (!session.me) {
    return (
      <>
        <h1>Payments</h1>
        {session.error && (
          <div id="payments-session-error" class="alert alert--error" role="alert">
            <p>Could not load your account: {session.error}</p>
            <button type="button" class="btn" onClick={() => void session.refresh()}>
              Try again
            </button>
          </div>
        )}
        <div id="payments-signed-out" class="panel">
          <p>Sign in to see your payments, receipts and refunds.</p>
          <Link id="payments-signin" class="btn btn--primary" href={signInPageHref('/payments')}>
            Sign in
          </Link>
        </div>
      </>
    );
  }

  return <PaymentList accountId={session.me.id} />;
}

function PaymentList({ accountId }: { accountId: string }) {
  const [items, setItems] = useState<Payment[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<ShownProblem | null>(null);
  const [moreError, setMoreError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [summary, setSummary] = useState('');
  const [reloadKey, setReloadKey] = useState(0);
  const moreController = useRef<AbortController | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    moreController.current?.abort();
    setLoading(true);
    setSummary('Loading payments…');
    listPayments(null, controller.signal)
      .then((page) => {
        const data = Array.isArray(page?.data) ? page.data : [];
        setItems(data);
        setNextCursor(page?.next_cursor ?? null);
        setProblem(null);
        setSummary(
          data.length === 0
            ? 'You have no payments yet.'
            : `${data.length === 1 ? '1 payment' : `${formatCount(data.length)} payments`}${page?.next_cursor ? ' shown, more available' : ''}.`,
        );
        setLoading(false);
      })
      .catch((caught) => {
        if (isAbort(caught) || handleSessionEnded(caught)) {
          return;
        }
        setItems(null);
        setNextCursor(null);
        setProblem(problemFrom(caught, 'request failed', 'Could not load your payments'));
        setSummary('');
        setLoading(false);
      });
    return () => controller.abort();
  }, [accountId, reloadKey]);

  const loadMore = async () => {
    if (!nextCursor || loadingMore) {
      return;
    }
    const controller = new AbortController();
    moreController.current = controller;
    setLoadingMore(true);
    setMoreError(null);
    const firstNew = items?.length ?? 0;
    try {
      const page = await listPayments(nextCursor, controller.signal);
      const data = Array.isArray(page?.data) ? page.data : [];
      setItems((current) => {
        const seen = new Set((current ?? []).map((item) => item.id));
        return [...(current ?? []), ...data.filter((item) => !seen.has(item.id))];
      });
      setNextCursor(page?.next_cursor ?? null);
      setSummary(`${data.length === 1 ? '1 more payment' : `${formatCount(data.length)} more payments`} loaded.`);
      if (!page?.next_cursor) {
        // The button goes away: continue from the first new payment.
        window.setTimeout(() => {
          listRef.current?.querySelectorAll<HTMLElement>('.payment-item__title')[firstNew]?.focus();
        }, 0);
      }
    } catch (caught) {
      if (!isAbort(caught) && !handleSessionEnded(caught)) {
        setMoreError(problemFrom(caught, 'request failed').message);
      }
    } finally {
      if (moreController.current === controller) {
        setLoadingMore(false);
      }
    }
  };

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
            <button type="button" class="btn" onClick={() => setReloadKey((key) => key + 1)}>
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
