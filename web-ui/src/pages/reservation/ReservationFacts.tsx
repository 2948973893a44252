/** What was booked: the window, the GPUs, the offer and host, and the price. */
import { formatDateTime } from '../../format';
import { formatCount, gpusLabel, money } from '../../offers';
import { ItemsTable } from '../../price-table';
import type { Reservation } from '../../reservations';
import { Link } from '../../router';

export function Details({ reservation: r }: { reservation: Reservation }) {
  const indexes = Array.isArray(r.gpu_indexes) ? r.gpu_indexes : [];
  return (
    <section class="section" aria-labelledby="reservation-window-heading">
      <h2 id="reservation-window-heading">Window and GPUs</h2>
      <dl class="details">
        <div>
          <dt>Window</dt>
          <dd id="reservation-window">
            <time dateTime={r.start}>{formatDateTime(r.start)}</time> to{' '}
            <time dateTime={r.end}>{formatDateTime(r.end)}</time> ({formatCount(r.hours)} h)
          </dd>
        </div>
        <div>
          <dt>GPUs</dt>
          <dd id="reservation-gpus">
            {gpusLabel(r.gpu_count)}
            {indexes.length > 0 && (
              <>
                {' '}
                (GPU {indexes.length === 1 ? 'index' : 'indexes'} {indexes.map((index) => formatCount(index)).join(', ')})
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Offer</dt>
          <dd>
            <Link id="reservation-offer" href={`/catalog/${encodeURIComponent(r.offer_id)}`}>
              <code>{r.offer_id}</code>
            </Link>
          </dd>
        </div>
        <div>
          <dt>Host</dt>
          <dd>
            <code id="reservation-host">{r.host_id}</code>
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd id="reservation-created">{formatDateTime(r.created_at)}</dd>
        </div>
      </dl>
    </section>
  );
}

export function Price({ reservation: r }: { reservation: Reservation }) {
  return (
    <section class="section" aria-labelledby="reservation-price-heading">
      <h2 id="reservation-price-heading">Price</h2>
      {r.price ? (
        <>
          <ItemsTable
            id="reservation-price-items"
            items={r.price.items}
            total={r.price.total}
            totalId="reservation-total"
            caption="Price of this reservation, item by item"
          />
          <p class="hint">
            {money(r.price.price_per_gpu_hour)} per GPU-hour before discounts, fees and taxes. Quote{' '}
            <code>{r.price.quote_id}</code>.
          </p>
          {r.price.cancellation_policy && (
            <>
              <h3 class="subheading">Cancellation policy</h3>
              <p id="reservation-cancellation-policy" class="quote-policy">
                {r.price.cancellation_policy}
              </p>
            </>
          )}
          {r.price.ready_guarantee && (
            <>
              <h3 class="subheading">Ready guarantee</h3>
              <p id="reservation-ready-guarantee" class="quote-policy">
                {r.price.ready_guarantee}
              </p>
            </>
          )}
        </>
      ) : (
        <p class="muted">No price recorded.</p>
      )}
    </section>
  );
}

