import { fieldErrorHelpers } from '../fields';
import type { JSX } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useFocusOnNext, useMounted } from '../hooks';
import { ApiError } from '../api';
import { signInPageHref } from '../auth';
import { AvailabilityStrip, PriceHistory } from '../charts';
import { formatRemaining, useNow } from '../clock';
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
  offerHref,
  parseHours,
  toUtcIso,
  utcToLocalInput,
  type FieldProblem,
  type Money,
  type OfferDetail,
  type Quote,
} from '../offers';
import { cardLabel, paymentDeclined, useSavedCard, type PaymentDeclined } from '../payments';
import { ItemsTable } from '../price-table';
import { ProblemAlert } from '../problem';
import {
  createReservation,
  handleSessionEnded,
  looksLikePrivateKey,
  newIdempotencyKey,
  rememberedSshKey,
  rememberSshKey,
  reservationConflict,
  reservationHref,
  type PaymentChoice,
  type ReservationConflict,
  type ReservationRequest,
} from '../reservations';
import { SITE_NAME } from '../routes';
import { Link, navigate, useSearch } from '../router';
import { useSession } from '../session';

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
  const formHeadingRef = useRef<HTMLHeadingElement>(null);
  const focusForm = useRef(false);
  /** The GPU count the link asked for (applied once the offer allows it). */
  const initialGpus = useRef(chosen.gpus);
  const pendingGpus = useRef<number | null>(null);

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
    if (!quote && focusForm.current) {
      focusForm.current = false;
      formHeadingRef.current?.focus();
    }
  }, [quote]);

  // The quote left the URL (a link to another window, back/forward): it no longer applies.
  useEffect(() => {
    if (!chosen.quote && quote) {
      setQuote(null);
    }
  }, [chosen.quote]);

  // A window chosen outside the form (a link, back/forward): show it in the form.
  useEffect(() => {
    if (chosen.start && localInputToUtc(startLocal) !== chosen.start) {
      setStartLocal(utcToLocalInput(chosen.start));
      // Quote exactly that instant (the input only holds minutes) until the visitor edits it.
      setStartTouched(false);
    }
    if (chosen.hours !== null && parseHours(hours) !== chosen.hours) {
      setHours(String(chosen.hours));
    }
    if (chosen.gpus !== null && chosen.gpus !== initialGpus.current) {
      pendingGpus.current = chosen.gpus;
    }
  }, [chosen.start, chosen.hours, chosen.gpus]);

  // ...and its GPU count, once the re-priced offer allows it.
  useEffect(() => {
    const wanted = pendingGpus.current;
    if (wanted !== null && counts.includes(wanted)) {
      pendingGpus.current = null;
      initialGpus.current = wanted;
      setGpuCount(String(wanted));
    }
  }, [chosen.gpus, counts.join(',')]);

  /** After a 409, the reserve error links to the next free window: follow it here. */
  const onTryWindow = (next: { start: string; end: string }) => {
    focusForm.current = true;
    setFields([]);
    setFormError(null);
    setNotice(
      `Showing the next free window, ${formatDateTime(next.start)} to ${formatDateTime(next.end)}. Get a new quote for it to reserve.`,
    );
  };

  const fieldError = (name: string) =>
    fields
      .filter((field) => field.field === name)
      .map((field) => field.detail)
      .join(' ');

  const { describe, errorLine } = fieldErrorHelpers(fieldError, QUOTE_FIELD_IDS);

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
        <h2 id="quote-form-heading" ref={formHeadingRef} tabIndex={-1}>
          Get a quote
        </h2>
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
      {quote && <QuotePanel quote={quote} headingRef={quoteHeadingRef} onTryWindow={onTryWindow} />}
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

interface QuotePanelProps {
  quote: Quote;
  headingRef: { current: HTMLHeadingElement | null };
  /** Called when the visitor follows a 409's "Try the next free window" link. */
  onTryWindow: (window: { start: string; end: string }) => void;
}

function QuotePanel({ quote, headingRef, onTryWindow }: QuotePanelProps) {
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
        {quote.cancellation_policy || 'No cancellation policy was given with this quote.'}
      </p>
      <ReserveArea quote={quote} expired={expired} onTryWindow={onTryWindow} />
      <p class="hint">
        Quote <code id="quote-id">{quote.id}</code>
      </p>
    </section>
  );
}

// ---------------------------------------------------------------------------
// Reserve: hold the quoted GPUs (signed in), or sign in first
// ---------------------------------------------------------------------------

interface ReserveProblem {
  message: string;
  /** Problems with the SSH key field (`#/ssh_public_key`). */
  keyError: string | null;
  /** Other field problems (e.g. `#/quote_id`). */
  others: string[];
  conflict: ReservationConflict | null;
  /** A network failure: retrying reuses the Idempotency-Key, so it cannot book twice. */
  retryable: boolean;
  /** HTTP status of the answer, 0 when none came. */
  status: number;
  /** A saved-card charge was refused (402). */
  declined: PaymentDeclined | null;
}

function conflictFreeText(free: number | null): string | null {
  if (free === null) {
    return null;
  }
  if (free === 0) {
    return 'No GPUs are still free for this window.';
  }
  return `${gpusLabel(free)} ${free === 1 ? 'is' : 'are'} still free for this window.`;
}

interface ReserveAreaProps {
  quote: Quote;
  expired: boolean;
  onTryWindow: (window: { start: string; end: string }) => void;
}

function ReserveArea({ quote, expired, onTryWindow }: ReserveAreaProps) {
  const { me, loading } = useSession();
  // Re-render when the query string changes so the sign-in link returns to this exact URL.
  useSearch();
  const [open, setOpen] = useState(false);
  const [sshKey, setSshKey] = useState(() => rememberedSshKey());
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ReserveProblem | null>(null);
  // The saved card is looked up once the form opens (signed in only).
  const saved = useSavedCard(open && Boolean(me));
  const card = saved.card;
  /** The payment of the button that submitted the form. */
  const chosenPayment = useRef<PaymentChoice>('checkout');
  const keyRef = useRef<HTMLTextAreaElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const mounted = useMounted();
  /** Set when the form opens from "Reserve": the SSH key field then takes focus. */
  const focusOnOpen = useFocusOnNext(open, keyRef);
  /** The Idempotency-Key of the last attempt and the body it was sent with. */
  const attempt = useRef<{ key: string; body: string } | null>(null);

  useEffect(() => {
    if (saved.error) {
      // Without the card only checkout is offered; an ended session signs out.
      handleSessionEnded(saved.error);
    }
  }, [saved.error]);

  // A new quote starts afresh.
  useEffect(() => {
    setProblem(null);
    attempt.current = null;
  }, [quote.id]);

  if (expired) {
    return (
      <>
        <button id="reserve" type="button" class="btn btn--primary btn--large" disabled aria-describedby="reserve-note">
          Reserve
        </button>
        <p id="reserve-note" class="hint">
          This quote has expired. Get a new quote to reserve.
        </p>
      </>
    );
  }

  if (!me) {
    if (loading) {
      return (
        <>
          <button
            id="reserve"
            type="button"
            class="btn btn--primary btn--large"
            aria-disabled="true"
            aria-describedby="reserve-note"
          >
            Reserve
          </button>
          <p id="reserve-note" class="hint">
            Checking whether you are signed in…
          </p>
        </>
      );
    }
    return (
      <>
        <Link
          id="reserve"
          class="btn btn--primary btn--large"
          href={signInPageHref(`${window.location.pathname}${window.location.search}`)}
          aria-describedby="reserve-note"
        >
          Sign in to reserve
        </Link>
        <p id="reserve-note" class="hint">
          You come back to this quote after signing in.
        </p>
      </>
    );
  }

  const toggle = () => {
    if (!open) {
      focusOnOpen.current = true;
    }
    setOpen(!open);
  };

  const fail = (next: ReserveProblem) => {
    setProblem(next);
    // Keyboard users land where the fix is: the key field, else the message (with its links).
    window.setTimeout(() => {
      if (next.keyError) {
        keyRef.current?.focus();
      } else {
        alertRef.current?.focus();
      }
    }, 0);
  };

  const onSubmit = async (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) {
      return;
    }
    const key = sshKey.trim();
    const local = (keyError: string) =>
      fail({
        message: 'Please correct the SSH public key.',
        keyError,
        others: [],
        conflict: null,
        retryable: false,
        status: 0,
        declined: null,
      });
    if (!key) {
      local('Paste your SSH public key, e.g. the contents of ~/.ssh/id_ed25519.pub.');
      return;
    }
    if (looksLikePrivateKey(key)) {
      local('This is a private key: never share it. Paste the public key (the .pub file) instead.');
      return;
    }
    if (/[\r\n]/.test(key)) {
      local('Paste one public key, on a single line.');
      return;
    }
    const payment: PaymentChoice = chosenPayment.current === 'saved_card' && card ? 'saved_card' : 'checkout';
    const request: ReservationRequest = { quote_id: quote.id, ssh_public_key: key, payment };
    const body = JSON.stringify(request);
    if (!attempt.current || attempt.current.body !== body) {
      attempt.current = { key: newIdempotencyKey(), body };
    }
    setBusy(true);
    setProblem(null);
    try {
      const reservation = await createReservation(me, request, attempt.current.key);
      attempt.current = null;
      rememberSshKey(key);
      if (!reservation || typeof reservation.id !== 'string') {
        throw new Error('Unexpected response for the new reservation.');
      }
      navigate(reservationHref(reservation.id));
      return;
    } catch (caught) {
      if (!mounted.current) {
        return;
      }
      const answered = caught instanceof ApiError;
      if (answered && caught.status < 500) {
        // A definite answer: the next attempt is a new request with a new key.
        attempt.current = null;
      }
      if (handleSessionEnded(caught)) {
        return;
      }
      const fields = fieldProblems(caught);
      const keyError = fields.filter((field) => field.field === 'ssh_public_key').map((field) => field.detail).join(' ');
      const others = fields.filter((field) => field.field !== 'ssh_public_key').map((field) => field.detail);
      let message: string;
      if (!answered) {
        message = `Could not reach the gateway: ${errorText(caught, 'request failed')}. Check your connection and try again; trying again cannot book twice.`;
      } else if (caught.status === 410) {
        message = 'This quote has expired. Get a new quote above to reserve.';
      } else if (caught.status === 403) {
        message = `The reservation was refused: ${caught.message} Reload the page and try again.`;
      } else {
        message = caught.message;
      }
      fail({
        message,
        keyError: keyError || null,
        others,
        conflict: reservationConflict(caught),
        retryable: !answered || caught.status >= 500,
        status: answered ? caught.status : 0,
        declined: paymentDeclined(caught),
      });
    } finally {
      if (mounted.current) {
        setBusy(false);
      }
    }
  };

  const conflict = problem?.conflict ?? null;
  const freeText = conflict ? conflictFreeText(conflict.gpusFree) : null;
  const next = conflict?.nextFreeWindow ?? null;
  const keyDescribedBy = ['reserve-ssh-key-hint', problem?.keyError ? 'reserve-ssh-key-error' : null]
    .filter(Boolean)
    .join(' ');

  return (
    <>
      <button
        id="reserve"
        type="button"
        class="btn btn--primary btn--large"
        aria-expanded={open ? 'true' : 'false'}
        aria-controls="reserve-form"
        aria-describedby="reserve-note"
        onClick={toggle}
      >
        Reserve
      </button>
      <p id="reserve-note" class="hint">
        Holds the GPUs for you while payment opens.
      </p>
      {open && (
        <form
          id="reserve-form"
          class="form reserve-form"
          noValidate
          aria-labelledby="reserve-form-heading"
          aria-busy={busy ? 'true' : undefined}
          onSubmit={(event) => void onSubmit(event)}
        >
          <h3 id="reserve-form-heading" class="subheading">
            Hold these GPUs
          </h3>
          <p id="reserve-summary">
            {gpusLabel(quote.gpu_count)} × {formatCount(quote.hours)} h, {formatDateTime(quote.start)} to{' '}
            {formatDateTime(quote.end)}, for <strong>{money(quote.total)}</strong> in total (itemized above). The
            cancellation policy above applies.
          </p>
          {problem && (
            <ProblemAlert
              alertRef={alertRef}
              problem={{
                message: problem.message,
                fields: problem.others,
                checkoutUrl: problem.declined?.checkoutUrl ?? null,
                status: problem.status,
                declineCode: problem.declined?.declineCode ?? null,
              }}
            >
              {conflict && (
                <>
                  {freeText && <p id="reserve-gpus-free">{freeText}</p>}
                  {next ? (
                    <p id="reserve-next-window">
                      Next free window for {gpusLabel(quote.gpu_count)} × {formatCount(quote.hours)} h:{' '}
                      {formatDateTime(next.start)} to {formatDateTime(next.end)}.{' '}
                      <Link
                        id="reserve-try-next-window"
                        href={offerHref(quote.offer_id, { start: next.start, hours: quote.hours, gpus: quote.gpu_count })}
                        onClick={(event) => {
                          const newTab = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey;
                          if (!newTab && !event.altKey) {
                            onTryWindow(next);
                          }
                        }}
                      >
                        Try the next free window
                      </Link>
                    </p>
                  ) : (
                    <p id="reserve-next-window">
                      No later window of {formatCount(quote.hours)} h has {gpusLabel(quote.gpu_count)} free. Try fewer
                      GPUs or hours.
                    </p>
                  )}
                </>
              )}
              {problem.declined && (
                <p id="reserve-declined-note">
                  {problem.declined.checkoutUrl
                    ? 'Your card was not charged; the GPUs stay held while you pay at checkout.'
                    : 'Your card was not charged and the GPUs were released. Try again to pay at checkout, or save another card on your account page.'}
                </p>
              )}
              {problem.retryable && <p>Press the button again to retry; it cannot book twice.</p>}
            </ProblemAlert>
          )}
          <div class="field">
            <label for="reserve-ssh-key">SSH public key</label>
            <textarea
              id="reserve-ssh-key"
              ref={keyRef}
              name="ssh_public_key"
              rows={4}
              required
              placeholder="ssh-ed25519 AAAA… you@laptop"
              spellcheck={false}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              value={sshKey}
              aria-invalid={problem?.keyError ? 'true' : undefined}
              aria-describedby={keyDescribedBy}
              onInput={(event) => setSshKey(event.currentTarget.value)}
              onChange={(event) => setSshKey(event.currentTarget.value)}
            />
            <p id="reserve-ssh-key-hint" class="hint">
              One line from your <code>.pub</code> file (ed25519, ECDSA or RSA of at least 2048 bits); it lets you log
              in to the machine. This browser remembers the last key you used.
            </p>
            {problem?.keyError && (
              <p id="reserve-ssh-key-error" class="field-error">
                {problem.keyError}
              </p>
            )}
          </div>
          <p id="reserve-payment-note" class="note">
            {card
              ? `Pay now with your saved card (${cardLabel(card)}), or hold the GPUs and pay by card at checkout before the hold expires.`
              : 'You pay by card at checkout next; the GPUs stay held for you until the hold expires.'}
          </p>
          <div class="reserve-actions">
            {card && (
              <button
                id="pay-saved-card"
                type="submit"
                aria-describedby="reserve-payment-note quote-cancellation-policy"
                class="btn btn--primary"
                aria-disabled={busy ? 'true' : undefined}
                aria-busy={busy && chosenPayment.current === 'saved_card' ? 'true' : undefined}
                onClick={() => {
                  chosenPayment.current = 'saved_card';
                }}
              >
                {busy && chosenPayment.current === 'saved_card'
                  ? 'Paying…'
                  : `Pay with saved card (${cardLabel(card)})`}
              </button>
            )}
            <button
              id="confirm-reserve"
              type="submit"
              aria-describedby="reserve-payment-note quote-cancellation-policy"
              class={card ? 'btn' : 'btn btn--primary'}
              aria-disabled={busy ? 'true' : undefined}
              aria-busy={busy && chosenPayment.current === 'checkout' ? 'true' : undefined}
              onClick={() => {
                chosenPayment.current = 'checkout';
              }}
            >
              {busy && chosenPayment.current === 'checkout'
                ? 'Holding…'
                : card
                  ? 'Hold and pay at checkout'
                  : 'Hold these GPUs'}
            </button>
          </div>
          {saved.loading && (
            <p class="hint" role="status">
              Looking for a saved card…
            </p>
          )}
        </form>
      )}
    </>
  );
}
