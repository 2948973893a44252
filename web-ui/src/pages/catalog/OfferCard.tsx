import { type CatalogFilters } from '../../catalog-filters';
import { formatCount, formatGb, formatPercent, formatUptime, gpusLabel, money, offerHref, type Offer } from '../../offers';
import { Link } from '../../router';
import { readyLine } from '../../time-to-ready';
import type { ChosenWorkload } from '../../workloads';

function domId(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** One offer in the results, priced for the filtered window, linking to its page. */
export function OfferCard({ offer, filters, workload = null }: { offer: Offer; filters: CatalogFilters; workload?: ChosenWorkload | null }) {
  const titleId = domId('offer-title', offer.id);
  const hyperscaler = offer.savings?.vs_hyperscaler_percent;
  const specialized = offer.savings?.vs_specialized_percent;
  const gpuCount = offer.window?.gpu_count ?? 1;
  const hours = offer.window?.hours ?? (Number(filters.hours) || 1);
  return (
    <li
      class={`offer-card${offer.bookable ? '' : ' offer-card--unavailable'}`}
      data-offer-id={offer.id}
    >
      <div class="offer-card__head">
        <h3 id={titleId} class="offer-card__title">
          {offer.gpu_model}
          <span class="visually-hidden"> in {offer.site}</span>
        </h3>
        <p class={`offer-card__free${offer.gpus_available > 0 ? '' : ' offer-card__free--none'}`}>
          {formatCount(offer.gpus_available)} of {formatCount(offer.gpus_total)} free
        </p>
      </div>
      {!offer.bookable && <p class="offer-card__unavailable">Not bookable for this window</p>}
      {offer.fit && <p class="offer-card__fit">{offer.fit.sentence}</p>}
      <dl class="offer-card__specs">
        <div>
          <dt>VRAM</dt>
          <dd>{formatGb(offer.vram_gb)} per GPU</dd>
        </div>
        <div>
          <dt>Location</dt>
          <dd>
            {offer.site} · {offer.region}
          </dd>
        </div>
        <div>
          <dt>Interconnect</dt>
          <dd>{offer.hardware?.interconnect || '—'}</dd>
        </div>
        <div>
          <dt>Uptime</dt>
          <dd class="offer-card__uptime">{formatUptime(offer.uptime_30d)} over 30 days</dd>
        </div>
        <div>
          <dt>Isolation</dt>
          <dd class="offer-card__isolation">
            {offer.isolation === 'whole_host' ? 'Whole host, one renter' : 'Own container'}
          </dd>
        </div>
        {(offer.images ?? []).some((image) => image.cached) && (
          <div>
            <dt>Cached</dt>
            <dd class="offer-card__cached">
              {(offer.images ?? []).every((image) => image.cached)
                ? `All ${offer.images?.length ?? 0} image templates`
                : (offer.images ?? []).filter((image) => image.cached).map((image) => image.name).join(', ')}
            </dd>
          </div>
        )}
      </dl>
      <p class="offer-card__price">
        <span class="offer-card__amount">{money(offer.all_in_per_gpu_hour)}</span>{' '}
        <span class="offer-card__unit">per GPU-hour, all-in</span>
      </p>
      <p class="offer-card__total">
        {money(offer.window_total)} for {gpusLabel(gpuCount)} × {formatCount(hours)} h
      </p>
      {(typeof hyperscaler === 'number' && hyperscaler > 0) || (typeof specialized === 'number' && specialized > 0) ? (
        <div class="offer-card__savings">
          {typeof hyperscaler === 'number' && hyperscaler > 0 && (
            <p
              class="savings-badge"
              title={
                offer.savings.hyperscaler_per_gpu_hour
                  ? `Hyperscaler reference: ${money(offer.savings.hyperscaler_per_gpu_hour)} per GPU-hour`
                  : undefined
              }
            >
              Save {formatPercent(hyperscaler)} vs hyperscaler
            </p>
          )}
          {typeof specialized === 'number' && specialized > 0 && (
            <p class="offer-card__vs muted">{formatPercent(specialized)} below specialized clouds</p>
          )}
        </div>
      ) : null}
      <p class="offer-card__ready" title="Median time from the start to a running instance, last 30 days">
        {readyLine(offer.time_to_ready)}
      </p>
      <p class="offer-card__host muted">Host {offer.host_name}</p>
      <Link
        class="btn offer-card__link"
        href={offerHref(offer.id, { start: filters.start, hours, gpus: gpuCount }, workload)}
        aria-describedby={titleId}
      >
        View offer
      </Link>
    </li>
  );
}
