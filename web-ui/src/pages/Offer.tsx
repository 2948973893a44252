import type { JSX } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { AvailabilityStrip, PriceHistory } from '../charts';
import { formatDateTime } from '../format';
import {
  catalogHref,
  createQuote,
  errorText,
  fieldProblems,
  formatCount,
  formatGb,
  formatPercent,
  getOffer,
  getQuote,
  gpusLabel,
  isAbort,
  isValidInstant,
  localInputToUtc,
  MAX_HOURS,
  MIN_HOURS,
  money,
  parseHours,
  toUtcIso,
  utcToLocalInput,
  type FieldProblem,
  type Money,
  type OfferDetail,
  type PriceItem,
  type Quote,
} from '../offers';
import { SITE_NAME } from '../routes';
import { Link, navigate, useSearch } from '../router';

interface LoadError {
  status: number;
  message: string;
}

/** The offer window chosen in the URL: `?start=…&hours=…&gpus=…&quote=…`. */
function windowFromSearch(search: string) {
  const params = new URLSearchParams(search);
  const start = params.get('start') ?? '';
  const gpus = Number(params.get('gpus'));
  return {
    start: isValidInstant(start) ? start : '',
    hours: parseHours(params.get('hours')),
    gpus: Number.isInteger(gpus) && gpus > 0 ? gpus : null,
    quote: params.get('quote') ?? '',
  };
}

/** Replaces some query parameters of the current URL (no new history entry). */
function replaceParams(changes: Record<string, string | null>): void {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === '') {
      params.delete(name);
    } else {
      params.set(name, value);
    }
  }
  const qs = params.toString();
  navigate(`${window.location.pathname}${qs ? `?${qs}` : ''}`, { replace: true });
}

export function OfferPage({ id }: { id: string }) {
  const search = useSearch();
  const chosen = useMemo(() => windowFromSearch(search), [search]);
  const [offer, setOffer] = useState<OfferDetail | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<LoadError | null>(null);
  const [reloadKey, setReloadKey] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    getOffer(id, { start: chosen.start || undefined, hours: chosen.hours ?? undefined }, controller.signal)
      .then((detail) => {
        if (!detail || typeof detail !== 'object' || typeof detail.id !== 'string') {
          throw new Error('Unexpected response for this offer.');
        }
        setOffer(detail);
        setError(null);
        setLoading(false);
      })
      .catch((caught) => {
        if (isAbort(caught)) {
          return;
        }
        setError({
          status: caught instanceof ApiError ? caught.status : 0,
          message: errorText(caught, 'Could not load this offer.'),
        });
        setLoading(false);
      });
    return () => controller.abort();
  }, [id, chosen.start, chosen.hours, reloadKey]);

  useEffect(() => {
    if (offer) {
      document.title = `${offer.gpu_model} in ${offer.site} — ${SITE_NAME}`;
    } else if (error?.status === 404) {
      document.title = `Offer not found — ${SITE_NAME}`;
    }
  }, [offer, error]);

  const notFound = error?.status === 404;
  const heading = offer && offer.id === id ? `${offer.gpu_model} in ${offer.site}` : notFound ? 'Offer not found' : 'Offer';

  return (
    <>
      <p class="breadcrumb">
        <Link id="back-to-catalog" href={catalogHref()}>
          ← Back to the catalog
        </Link>
      </p>
      <h1>{heading}</h1>
      {notFound ? (
        <div id="offer-not-found" class="empty-state">
          <p>There is no offer {id ? <code>{id}</code> : null}. It may have been withdrawn.</p>
          <p>
            <Link href="/catalog">Browse the catalog</Link> for current offers.
          </p>
        </div>
      ) : error && !offer ? (
        <div id="offer-error" class="alert alert--error" role="alert">
          <p>Could not load this offer: {error.message}</p>
          <button type="button" class="btn" onClick={() => setReloadKey((key) => key + 1)}>
            Try again
          </button>
          {(chosen.start || chosen.hours !== null) && (
            <p>
              <Link href={`/catalog/${encodeURIComponent(id)}`}>Show this offer from now instead</Link>
            </p>
          )}
        </div>
      ) : !offer ? (
        <p class="muted" role="status">
          Loading the offer…
        </p>
      ) : (
        <OfferDetails
          offer={offer}
          updating={loading}
          updateError={error ? error.message : null}
          onRetry={() => setReloadKey((key) => key + 1)}
          chosen={chosen}
        />
      )}
    </>
  );
}

interface OfferDetailsProps {
  offer: OfferDetail;
  updating: boolean;
  updateError: string | null;
  onRetry: () => void;
  chosen: ReturnType<typeof windowFromSearch>;
}

function OfferDetails({ offer, updating, updateError, onRetry, chosen }: OfferDetailsProps) {
  const hyperscaler = offer.savings?.vs_hyperscaler_percent;
  return (
    <>
      <p class="lead offer-lead">
        {offer.architecture} · {formatGb(offer.vram_gb)} per GPU · {offer.site}, {offer.region} ({offer.country}) · host{' '}
        {offer.host_name}
      </p>
      <div id="offer-summary" class="offer-summary" data-offer-id={offer.id}>
        <p class="offer-summary__price">
          <span id="offer-price" class="offer-summary__amount">
            {money(offer.all_in_per_gpu_hour)}
          </span>{' '}
          <span class="offer-summary__unit">per GPU-hour, all-in</span>
        </p>
        <p class="offer-summary__free">
          {formatCount(offer.gpus_available)} of {formatCount(offer.gpus_total)} GPUs free for this window
          {offer.bookable ? '' : ' — not bookable'}
        </p>
        {typeof hyperscaler === 'number' && hyperscaler > 0 && (
          <p class="savings-badge">Save {formatPercent(hyperscaler)} vs hyperscaler</p>
        )}
      </div>
      {updateError && (
        <div id="offer-update-error" class="alert alert--error" role="alert">
          <p>Could not update the prices for the chosen window: {updateError}</p>
          <button type="button" class="btn" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
      <div class="offer-layout">
        <div class="offer-layout__main">
          <Hardware offer={offer} />
          <PriceBreakdown offer={offer} updating={updating} />
          <References offer={offer} />
        </div>
        <aside class="offer-layout__aside" aria-label="Get a quote">
          <QuoteSection offer={offer} chosen={chosen} />
        </aside>
      </div>
      <section class="section" aria-labelledby="availability-heading">
        <h2 id="availability-heading">Availability, next 14 days</h2>
        <AvailabilityStrip availability={offer.availability} total={offer.gpus_total} />
      </section>
      <section class="section" aria-labelledby="price-history-heading">
        <h2 id="price-history-heading">Price history</h2>
        <PriceHistory history={offer.price_history} />
      </section>
    </>
  );
}

function Hardware({ offer }: { offer: OfferDetail }) {
  const hw = offer.hardware;
  const rows: [string, JSX.Element | string][] = [
    ['GPU', `${offer.gpu_model} (${offer.architecture})`],
    ['VRAM per GPU', formatGb(offer.vram_gb)],
    ['GPUs in the host', `${formatCount(offer.gpus_total)} (${formatCount(offer.gpus_available)} free for this window)`],
    ['Bookable GPU counts', (offer.gpu_counts ?? []).map(formatCount).join(', ') || '—'],
    ['Interconnect', hw?.interconnect || '—'],
    ['CPU', hw ? `${hw.cpu_model}, ${formatCount(hw.cpu_cores)} cores` : '—'],
    ['RAM', hw ? formatGb(hw.ram_gb) : '—'],
    ['NVMe storage', hw ? formatGb(hw.nvme_gb) : '—'],
    ['Network', hw ? `${formatCount(hw.net_gbps)} Gbit/s` : '—'],
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

function ItemsTable({
  id,
  items,
  total,
  totalId,
  caption,
}: {
  id: string;
  items: PriceItem[];
  total: Money;
  totalId?: string;
  caption: string;
}) {
  return (
    <div class="table-wrap">
      <table id={id} class="data-table price-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" class="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {(items ?? []).map((item, index) => (
            <tr key={`${item.kind}-${index}`} class={`price-item price-item--${item.kind}`} data-kind={item.kind}>
              <th scope="row">{item.description}</th>
              <td class="num">{money(item.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td id={totalId} class="num price-table__total">
              {money(total)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

function PriceBreakdown({ offer, updating }: { offer: OfferDetail; updating: boolean }) {
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

function References({ offer }: { offer: OfferDetail }) {
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

// ---------------------------------------------------------------------------
// Quote
// ---------------------------------------------------------------------------

const QUOTE_FIELD_IDS: Record<string, string> = {
  gpu_count: 'quote-gpu-count',
  start: 'quote-start',
  hours: 'quote-hours',
};

function QuoteSection({ offer, chosen }: { offer: OfferDetail; chosen: ReturnType<typeof windowFromSearch> }) {
  const counts = (offer.gpu_counts ?? []).filter((count) => count <= offer.gpus_available);
  const [gpuCount, setGpuCount] = useState(() => {
    const preferred = [chosen.gpus, offer.window?.gpu_count].find((count) => count && counts.includes(count));
    return String(preferred ?? counts[0] ?? '');
  });
  const [startLocal, setStartLocal] = useState(() => utcToLocalInput(chosen.start || offer.window?.start));
  const [startTouched, setStartTouched] = useState(false);
  const [hours, setHours] = useState(() => String(chosen.hours ?? offer.window?.hours ?? 1));
  const [fields, setFields] = useState<FieldProblem[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const quoteHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusQuote = useRef(false);

  // The allowed counts follow the window's availability.
  useEffect(() => {
    if (counts.length === 0) {
      setGpuCount('');
    } else if (!counts.includes(Number(gpuCount))) {
      setGpuCount(String(counts[nearestIndex(counts, Number(gpuCount) || (counts[0] ?? 1))]));
    }
  }, [counts.join(',')]);

  // A quote id in the URL (after a reload or a shared link): show it again if still valid.
  useEffect(() => {
    if (!chosen.quote || quote?.id === chosen.quote) {
      return;
    }
    const controller = new AbortController();
    getQuote(chosen.quote, controller.signal)
      .then((loaded) => {
        if (loaded && loaded.offer_id === offer.id) {
          setQuote(loaded);
          setNotice(null);
        } else {
          replaceParams({ quote: null });
        }
      })
      .catch((caught) => {
        if (isAbort(caught)) {
          return;
        }
        const status = caught instanceof ApiError ? caught.status : 0;
        setNotice(
          status === 410
            ? 'Your earlier quote has expired. Get a new quote below.'
            : status === 404
              ? 'Your earlier quote was not found. Get a new quote below.'
              : `Could not load your earlier quote: ${errorText(caught, 'request failed')}`,
        );
        if (status === 404 || status === 410) {
          replaceParams({ quote: null });
        }
      });
    return () => controller.abort();
  }, [chosen.quote]);

  useEffect(() => {
    if (quote && focusQuote.current) {
      focusQuote.current = false;
      quoteHeadingRef.current?.focus();
    }
  }, [quote]);

  const fieldError = (name: string) =>
    fields
      .filter((field) => field.field === name)
      .map((field) => field.detail)
      .join(' ');

  const describe = (name: string, hintId?: string) => {
    const error = fieldError(name);
    const ids = [hintId, error ? `${QUOTE_FIELD_IDS[name]}-error` : undefined].filter(Boolean).join(' ');
    return {
      'aria-invalid': error ? ('true' as const) : undefined,
      'aria-describedby': ids || undefined,
    };
  };

  const errorLine = (name: string) => {
    const error = fieldError(name);
    return error ? (
      <p id={`${QUOTE_FIELD_IDS[name]}-error`} class="field-error">
        {error}
      </p>
    ) : null;
  };

  /**
   * The start to send: the one picked here or in the link, else "now" at the moment of asking
   * (the offer's own window start may be minutes old by then, and the API refuses past starts).
   */
  const startInstant = (): string | null =>
    startTouched ? localInputToUtc(startLocal) : chosen.start || toUtcIso(new Date());

  // Changing the window re-prices the offer above (and its free GPU count).
  const onWindowChange = (nextStartLocal: string, nextHours: string, touched: boolean) => {
    const parsedHours = parseHours(nextHours);
    const start = touched ? localInputToUtc(nextStartLocal) : chosen.start;
    if (parsedHours === null || (touched && !start)) {
      return;
    }
    replaceParams({ start: start || null, hours: String(parsedHours) });
  };

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) {
      return;
    }
    const problems: FieldProblem[] = [];
    const count = Number(gpuCount);
    if (!counts.includes(count)) {
      problems.push({ field: 'gpu_count', detail: 'Choose how many GPUs to rent.' });
    }
    const start = startInstant();
    if (!start) {
      problems.push({ field: 'start', detail: 'Enter the start as a date and time.' });
    }
    const parsedHours = parseHours(hours);
    if (parsedHours === null) {
      problems.push({ field: 'hours', detail: `Enter the hours as a whole number from ${MIN_HOURS} to ${MAX_HOURS}.` });
    }
    setFields(problems);
    setFormError(problems.length > 0 ? `Please correct the highlighted ${problems.length === 1 ? 'field' : 'fields'}.` : null);
    if (problems.length > 0 || !start || parsedHours === null) {
      const first = QUOTE_FIELD_IDS[problems[0]?.field ?? ''];
      if (first) {
        formRef.current?.querySelector<HTMLElement>(`#${first}`)?.focus();
      }
      return;
    }
    setBusy(true);
    try {
      const created = await createQuote({ offer_id: offer.id, gpu_count: count, start, hours: parsedHours });
      focusQuote.current = true;
      setQuote(created);
      setNotice(null);
      replaceParams({ quote: created.id });
    } catch (caught) {
      const problemsFromServer = fieldProblems(caught);
      setFields(problemsFromServer);
      setFormError(
        caught instanceof ApiError && caught.status === 403
          ? `The quote was refused: ${caught.message} Reload the page and try again.`
          : errorText(caught, 'Could not get a quote.'),
      );
    } finally {
      setBusy(false);
    }
  };

  const generalFieldErrors = fields.filter((field) => !QUOTE_FIELD_IDS[field.field]);

  return (
    <>
      <form
        id="quote-form"
        ref={formRef}
        class="form panel quote-form"
        noValidate
        aria-labelledby="quote-form-heading"
        onSubmit={(event) => void onSubmit(event)}
      >
        <h2 id="quote-form-heading">Get a quote</h2>
        {formError && (
          <div id="quote-form-error" class="alert alert--error" role="alert">
            <p>{formError}</p>
            {generalFieldErrors.length > 0 && (
              <ul class="field-errors">
                {generalFieldErrors.map((field, index) => (
                  <li key={index}>{field.detail}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {notice && (
          <p id="quote-notice" class="notice" role="status">
            {notice}
          </p>
        )}
        <div class="field">
          <label for="quote-gpu-count">GPUs</label>
          <select
            id="quote-gpu-count"
            name="gpu_count"
            value={gpuCount}
            disabled={counts.length === 0}
            {...describe('gpu_count', counts.length === 0 ? 'quote-gpu-count-hint' : undefined)}
            onChange={(event) => setGpuCount(event.currentTarget.value)}
          >
            {counts.map((count) => (
              <option key={count} value={String(count)}>
                {gpusLabel(count)}
              </option>
            ))}
          </select>
          {counts.length === 0 && (
            <p id="quote-gpu-count-hint" class="hint">
              No GPUs are free for this whole window. Try another start or fewer hours; the availability below shows
              free hours.
            </p>
          )}
          {errorLine('gpu_count')}
        </div>
        <div class="field">
          <label for="quote-start">Start</label>
          <input
            id="quote-start"
            type="datetime-local"
            name="start"
            step={60}
            value={startLocal}
            {...describe('start', 'quote-start-hint')}
            onInput={(event) => {
              setStartLocal(event.currentTarget.value);
              setStartTouched(true);
            }}
            onChange={(event) => {
              setStartLocal(event.currentTarget.value);
              setStartTouched(true);
              onWindowChange(event.currentTarget.value, hours, true);
            }}
          />
          <p id="quote-start-hint" class="hint">
            Your local time.
          </p>
          {errorLine('start')}
        </div>
        <div class="field">
          <label for="quote-hours">Hours</label>
          <input
            id="quote-hours"
            type="number"
            name="hours"
            inputMode="numeric"
            min={MIN_HOURS}
            max={MAX_HOURS}
            step={1}
            required
            value={hours}
            {...describe('hours', 'quote-hours-hint')}
            onInput={(event) => setHours(event.currentTarget.value)}
            onChange={(event) => onWindowChange(startLocal, event.currentTarget.value, startTouched)}
          />
          <p id="quote-hours-hint" class="hint">
            {MIN_HOURS} to {MAX_HOURS}.
          </p>
          {errorLine('hours')}
        </div>
        <button
          id="get-quote"
          type="submit"
          class="btn btn--primary"
          disabled={counts.length === 0}
          aria-disabled={busy ? 'true' : undefined}
          aria-busy={busy ? 'true' : undefined}
        >
          {busy ? 'Getting a quote…' : 'Get quote'}
        </button>
      </form>
      {quote && <QuotePanel quote={quote} headingRef={quoteHeadingRef} />}
    </>
  );
}

function nearestIndex(counts: number[], wanted: number): number {
  // The largest allowed count not above the wanted one, else the smallest.
  let best = 0;
  counts.forEach((count, index) => {
    if (count <= wanted) {
      best = index;
    }
  });
  return best;
}

/** Re-renders every second while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) {
      return;
    }
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) {
    return `${hours} h ${minutes} min`;
  }
  if (minutes > 0) {
    return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
  }
  return `${seconds} s`;
}

function QuotePanel({ quote, headingRef }: { quote: Quote; headingRef: { current: HTMLHeadingElement | null } }) {
  const expiresAt = new Date(quote.expires_at).getTime();
  const validExpiry = !Number.isNaN(expiresAt);
  const now = useNow(validExpiry && expiresAt > Date.now());
  const expired = validExpiry && expiresAt <= now;
  const remaining = expiresAt - now;

  return (
    <section
      id="quote"
      class={`panel quote-panel${expired ? ' quote-panel--expired' : ''}`}
      aria-labelledby="quote-heading"
      data-quote-id={quote.id}
    >
      <h2 id="quote-heading" ref={headingRef} tabIndex={-1}>
        Your quote
      </h2>
      <p id="quote-window">
        {gpusLabel(quote.gpu_count)} × {formatCount(quote.hours)} h, {formatDateTime(quote.start)} to{' '}
        {formatDateTime(quote.end)}
      </p>
      <ItemsTable
        id="quote-items"
        items={quote.items}
        total={quote.total}
        totalId="quote-total"
        caption="Quoted price, item by item"
      />
      <p class="hint">{money(quote.price_per_gpu_hour)} per GPU-hour before discounts, fees and taxes.</p>
      <p id="quote-expiry" class={expired ? 'quote-expiry quote-expiry--expired' : 'quote-expiry'}>
        {expired ? (
          <>
            This quote expired at {formatDateTime(quote.expires_at)}. Get a new quote to see current prices.
          </>
        ) : (
          <>
            Valid until {formatDateTime(quote.expires_at)}
            {validExpiry && (
              <>
                {' '}
                <span class="quote-countdown">({formatRemaining(remaining)} left)</span>
              </>
            )}
          </>
        )}
      </p>
      <p class="visually-hidden" role="status" aria-live="polite">
        {expired ? 'This quote has expired.' : ''}
      </p>
      <h3 class="subheading">Cancellation policy</h3>
      <p id="quote-cancellation-policy" class="quote-policy">
        {quote.cancellation_policy}
      </p>
      <button id="reserve" type="button" class="btn btn--primary btn--large" disabled aria-describedby="reserve-note">
        Reserve
      </button>
      <p id="reserve-note" class="hint">
        Reservations open soon.
      </p>
      <p class="hint">
        Quote <code id="quote-id">{quote.id}</code>
      </p>
    </section>
  );
}
