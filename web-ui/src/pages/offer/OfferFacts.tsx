/** What the offer is: its hardware, its price for the window, and how it compares. */
import type { JSX } from 'preact';
import { formatDateTime } from '../../format';
import { formatCount, formatGb, formatPercent, gpusLabel, money, type Money, type OfferDetail } from '../../offers';
import { ItemsTable } from '../../price-table';
import { formatSeconds, type TimeToReady } from '../../time-to-ready';

export function Hardware({ offer }: { offer: OfferDetail }) {
  const hw = offer.hardware;
  const rows: [string, JSX.Element | string][] = [
    ['GPU', `${offer.gpu_model} (${offer.architecture})`],
    ['VRAM per GPU', formatGb(offer.vram_gb)],
    ['GPUs in the host', `${formatCount(offer.gpus_total)} (${formatCount(offer.gpus_available)} free for this window)`],
    ['Bookable GPU counts', (offer.gpu_counts ?? []).map(formatCount).join(', ') || '—'],
    ['Isolation', isolationText(offer.isolation)],
    ['Interconnect', hw?.interconnect || '—'],
    ['CPU', hw ? `${hw.cpu_model}, ${formatCount(hw.cpu_cores)} cores` : '—'],
    ['RAM', hw ? formatGb(hw.ram_gb) : '—'],
    ['NVMe storage', hw ? formatGb(hw.nvme_gb) : '—'],
    ['Network', hw && hw.net_gbps != null ? `${formatCount(hw.net_gbps)} Gbit/s` : '—'],
    [
      'Per GPU',
      hw?.per_gpu
        ? `${formatCount(hw.per_gpu.cpu_cores)} CPU cores, ${formatGb(hw.per_gpu.ram_gb)} RAM, ${formatGb(hw.per_gpu.nvme_gb)} NVMe`
        : '—',
    ],
    ['Location', `${offer.site}, ${offer.region} (${offer.country})`],
    ['Host', offer.host_name],
  ];
  return (
    <section class="section" aria-labelledby="hardware-heading">
      <h2 id="hardware-heading">Hardware</h2>
      <div class="table-wrap">
        <table id="offer-hardware" class="data-table spec-table">
          <caption class="visually-hidden">Hardware of this offer</caption>
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** How renters are kept apart on this host, in words. */
export function isolationText(isolation: string | undefined): string {
  return isolation === 'whole_host'
    ? 'Whole host: rented to one renter at a time (instances run as processes, not containers)'
    : 'Container: your instance is an isolated container with only your GPUs';
}

/** The image templates on this host: cached or not, runnable or not, and how fast their starts were ready. */
export function Images({ offer }: { offer: OfferDetail }) {
  const images = offer.images ?? [];
  if (images.length === 0) {
    return null;
  }
  return (
    <section class="section" aria-labelledby="images-heading">
      <h2 id="images-heading">Images</h2>
      <p class="hint">
        Pick one when you reserve. A cached image starts in seconds; another is downloaded first. Ready times are this
        host's starts of the image over the last 30 days: median, and 95th percentile.
      </p>
      <div class="table-wrap">
        <table id="offer-images" class="data-table image-table">
          <caption class="visually-hidden">Image templates on this host</caption>
          <thead>
            <tr>
              <th scope="col">Image</th>
              <th scope="col">On this host</th>
              <th scope="col">Ready, cached</th>
              <th scope="col">Ready, downloaded first</th>
            </tr>
          </thead>
          <tbody>
            {images.map((image) => (
              <tr
                key={image.id}
                data-image={image.id}
                data-cached={image.cached ? 'true' : 'false'}
                data-available={image.available === false ? 'false' : 'true'}
              >
                <th scope="row">{image.name}</th>
                <td>
                  {image.available === false ? (
                    <span class="image-table__unavailable">
                      Cannot run here: {withoutName(image.unavailable_reason, image.name)}
                    </span>
                  ) : image.cached ? (
                    <strong>Cached</strong>
                  ) : (
                    <span class="muted">Not cached yet</span>
                  )}
                </td>
                <td data-ready="cached">{readyCell(image.time_to_ready?.cached)}</td>
                <td data-ready="uncached">{readyCell(image.time_to_ready?.uncached)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** "needs NVIDIA driver 560.28 or newer (…)": the reason without the name the row already shows. */
function withoutName(reason: string | null | undefined, name: string): string {
  return (reason ?? '').startsWith(`${name} `) ? (reason ?? '').slice(name.length + 1) : (reason ?? '');
}

/** "12 sec", then "p95 30 sec · 5 starts" below it, or a muted "No data yet". */
function readyCell(figure: TimeToReady | null | undefined) {
  if (!figure) {
    return <span class="muted">No data yet</span>;
  }
  return (
    <>
      {formatSeconds(figure.p50_seconds)}
      <span class="muted image-table__more">
        p95 {formatSeconds(figure.p95_seconds)} · {formatCount(figure.samples)} {figure.samples === 1 ? 'start' : 'starts'}
      </span>
    </>
  );
}

export function PriceBreakdown({ offer, updating }: { offer: OfferDetail; updating: boolean }) {
  const win = offer.window;
  return (
    <section class="section" aria-labelledby="price-heading" aria-busy={updating ? 'true' : undefined}>
      <h2 id="price-heading">Price breakdown</h2>
      <p id="offer-window">
        {gpusLabel(win.gpu_count)} × {formatCount(win.hours)} h, {formatDateTime(win.start)} to {formatDateTime(win.end)}
        {updating && <span class="muted"> (updating…)</span>}
      </p>
      <ItemsTable
        id="offer-price-items"
        items={offer.price_items}
        total={offer.window_total}
        caption={`Price for ${gpusLabel(win.gpu_count)} for ${win.hours} hours`}
      />
      <p class="hint">
        Base price {money(offer.price_per_gpu_hour)} per GPU-hour; the all-in price {money(offer.all_in_per_gpu_hour)}{' '}
        includes discounts, fees and taxes.
      </p>
    </section>
  );
}

function comparison(percent: number | null | undefined, who: string, reference: Money | null | undefined) {
  if (typeof percent !== 'number' || !reference) {
    return null;
  }
  const relation =
    percent > 0
      ? `${formatPercent(percent)} cheaper than`
      : percent < 0
        ? `${formatPercent(-percent)} more expensive than`
        : 'the same price as';
  return (
    <li>
      {relation} {who} ({money(reference)} per GPU-hour)
    </li>
  );
}

export function References({ offer }: { offer: OfferDetail }) {
  const s = offer.savings;
  const hyperscaler = comparison(s?.vs_hyperscaler_percent, 'a hyperscaler', s?.hyperscaler_per_gpu_hour);
  const specialized = comparison(s?.vs_specialized_percent, 'specialized GPU clouds', s?.specialized_per_gpu_hour);
  if (!hyperscaler && !specialized) {
    return null;
  }
  return (
    <section class="section" aria-labelledby="references-heading">
      <h2 id="references-heading">Compared with reference prices</h2>
      <p>Per GPU-hour, this offer is:</p>
      <ul id="offer-references" class="plain-list">
        {hyperscaler}
        {specialized}
      </ul>
    </section>
  );
}

