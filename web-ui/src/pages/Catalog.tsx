import { LoadMore } from '../load-more';
import { usePagedList } from '../paged-list';
import { fieldErrorHelpers } from '../fields';
import type { JSX } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  EMPTY_FILTERS,
  errorText,
  EXTRA_FILTERS,
  extraFiltersFromSearch,
  fieldProblems,
  filtersFromSearch,
  filtersToParams,
  formatCount,
  formatGb,
  formatPercent,
  gpusLabel,
  isAbort,
  listGpuModels,
  listOffers,
  localInputToUtc,
  MAX_HOURS,
  MIN_HOURS,
  money,
  OFFER_PAGE_SIZE,
  offerHref,
  parseHours,
  rememberCatalogSearch,
  SORT_OPTIONS,
  utcToLocalInput,
  type CatalogFilters,
  type FieldProblem,
  type GpuModel,
  type Offer,
} from '../offers';
import { Link, navigate, useSearch } from '../router';

/** Filter fields: query parameter → form control id. */
const FIELD_IDS: Record<string, string> = {
  gpu_model: 'filter-gpu-model',
  min_vram_gb: 'filter-min-vram',
  min_gpus: 'filter-min-gpus',
  region: 'filter-region',
  start: 'filter-start',
  hours: 'filter-hours',
  sort: 'filter-sort',
  include_unavailable: 'filter-include-unavailable',
};

const FIELD_LABELS: Record<string, string> = {
  gpu_model: 'GPU model',
  min_vram_gb: 'Min VRAM per GPU',
  min_gpus: 'Min GPUs',
  region: 'Region',
  start: 'Start',
  hours: 'Hours',
  sort: 'Sort by',
  include_unavailable: 'Show unavailable',
};

interface Problem {
  message: string;
  fields: FieldProblem[];
}

/** The form's editable state: like {@link CatalogFilters}, but start in the viewer's zone. */
interface Draft extends Omit<CatalogFilters, 'start'> {
  startLocal: string;
}

function draftFrom(filters: CatalogFilters): Draft {
  const { start, ...rest } = filters;
  return { ...rest, hours: rest.hours || '1', startLocal: utcToLocalInput(start) };
}

function domId(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Client-side checks before the URL changes; the server checks again. */
function validate(draft: Draft): { filters: CatalogFilters | null; fields: FieldProblem[] } {
  const fields: FieldProblem[] = [];
  const wholeAtLeast = (value: string, min: number) => value === '' || (/^\d+$/.test(value) && Number(value) >= min);
  const minVram = draft.min_vram_gb.trim();
  if (!wholeAtLeast(minVram, 1)) {
    fields.push({ field: 'min_vram_gb', detail: 'Enter the minimum VRAM as a whole number of GB, or leave it empty.' });
  }
  const minGpus = draft.min_gpus.trim();
  if (!wholeAtLeast(minGpus, 1)) {
    fields.push({ field: 'min_gpus', detail: 'Enter the minimum number of GPUs as a whole number from 1, or leave it empty.' });
  }
  let start = '';
  if (draft.startLocal) {
    const utc = localInputToUtc(draft.startLocal);
    if (!utc) {
      fields.push({ field: 'start', detail: 'Enter the start as a date and time, or leave it empty to start now.' });
    } else if (new Date(utc).getTime() < Date.now() - 5 * 60 * 1000) {
      fields.push({ field: 'start', detail: 'Choose a start in the future, or leave it empty to start now.' });
    } else {
      start = utc;
    }
  }
  const hours = parseHours(draft.hours.trim() || '1');
  if (hours === null) {
    fields.push({ field: 'hours', detail: `Enter the hours as a whole number from ${MIN_HOURS} to ${MAX_HOURS}.` });
  }
  if (fields.length > 0) {
    return { filters: null, fields };
  }
  return {
    filters: {
      gpu_model: draft.gpu_model,
      min_vram_gb: minVram,
      min_gpus: minGpus,
      region: draft.region.trim(),
      start,
      hours: hours === 1 ? '' : String(hours),
      sort: draft.sort === 'price' ? '' : draft.sort,
      include_unavailable: draft.include_unavailable,
    },
    fields,
  };
}

export function CatalogPage() {
  const search = useSearch();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const extras = useMemo(() => extraFiltersFromSearch(search), [search]);
  const apiQuery = useMemo(() => {
    const params = filtersToParams(filters, extras);
    params.set('limit', String(OFFER_PAGE_SIZE));
    return params.toString();
  }, [filters, extras]);

  const [models, setModels] = useState<GpuModel[] | null>(null);
  const [modelsFailed, setModelsFailed] = useState(false);
  const [regions, setRegions] = useState<string[]>([]);
  const alertRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    rememberCatalogSearch(search);
  }, [search]);

  useEffect(() => {
    const controller = new AbortController();
    listGpuModels(controller.signal)
      .then((page) => setModels(Array.isArray(page?.data) ? page.data : []))
      .catch((error) => {
        if (!isAbort(error)) {
          setModelsFailed(true);
        }
      });
    return () => controller.abort();
  }, []);

  const noteRegions = (page: Offer[]) => {
    setRegions((current) => {
      const next = new Set(current);
      for (const offer of page) {
        if (offer.region) {
          next.add(offer.region);
        }
      }
      return next.size === current.length ? current : [...next].sort();
    });
  };

  const {
    items: offers,
    nextCursor,
    loading,
    problem,
    loadingMore,
    moreError,
    summary: status,
    reload,
    loadMore,
  } = usePagedList<Offer, Problem>({
    fetchPage: (cursor, signal) => {
      const params = new URLSearchParams(apiQuery);
      if (cursor) {
        params.set('cursor', cursor);
      }
      return listOffers(params, signal);
    },
    deps: [apiQuery],
    noun: 'offer',
    emptyText: 'No offers match these filters.',
    loadProblem: (error) => ({ message: errorText(error, 'Could not load offers.'), fields: fieldProblems(error) }),
    moreProblem: (error) => errorText(error, 'Could not load more offers.'),
    onPage: noteRegions,
  });

  useEffect(() => {
    if (problem) {
      alertRef.current?.focus();
    }
  }, [problem]);

  const apply = (next: CatalogFilters) => {
    const params = filtersToParams(next, extras);
    const qs = params.toString();
    const href = `/catalog${qs ? `?${qs}` : ''}`;
    if (href === `/catalog${window.location.search}`) {
      reload();
    } else {
      navigate(href);
    }
  };

  const clearExtras = () => {
    const qs = filtersToParams(filters).toString();
    navigate(`/catalog${qs ? `?${qs}` : ''}`);
  };

  const serverFields = problem?.fields ?? [];

  return (
    <>
      <h1>Catalog</h1>
      <p class="lead">Bookable GPU capacity with all-in hourly prices: fees and taxes included.</p>
      <div class="catalog-layout">
        <FilterPanel
          filters={filters}
          models={models}
          modelsFailed={modelsFailed}
          regions={regions}
          serverFields={serverFields}
          busy={loading}
          onApply={apply}
        />
        <section id="offer-results" class="catalog-results" aria-labelledby="offer-results-heading" aria-busy={loading ? 'true' : undefined}>
          <h2 id="offer-results-heading" class="visually-hidden">
            Offers
          </h2>
          <p id="catalog-status" class="catalog-status muted" role="status" aria-live="polite">
            {status}
          </p>
          {extras.length > 0 && (
            <div id="extra-filters" class="notice extra-filters">
              <p>
                Also filtered by{' '}
                {extras.map(([param, value], index) => (
                  <span key={param}>
                    {index > 0 && ', '}
                    {EXTRA_FILTERS.find((extra) => extra.param === param)?.label ?? param}: <strong>{value}</strong>
                  </span>
                ))}
                .
              </p>
              <button type="button" class="btn btn--small" onClick={clearExtras}>
                Clear these filters
              </button>
            </div>
          )}
          {problem && (
            <div id="catalog-error" class="alert alert--error" role="alert" tabIndex={-1} ref={alertRef}>
              <p>{problem.message}</p>
              {problem.fields.length > 0 && (
                <ul class="field-errors">
                  {problem.fields.map((field, index) => (
                    <li key={`${field.field}-${index}`}>
                      {FIELD_IDS[field.field] ? (
                        <a href={`#${FIELD_IDS[field.field]}`}>{FIELD_LABELS[field.field] ?? field.field}</a>
                      ) : (
                        field.field && <strong>{field.field}</strong>
                      )}
                      {field.field ? ': ' : ''}
                      {field.detail}
                    </li>
                  ))}
                </ul>
              )}
              <button type="button" class="btn" onClick={reload}>
                Try again
              </button>
            </div>
          )}
          {offers === null ? (
            loading && <p class="muted">Loading offers…</p>
          ) : offers.length === 0 ? (
            <div id="offer-empty" class="empty-state">
              <p>No offers match these filters.</p>
              <p>
                Try a lower minimum, another region or a later start
                {filters.include_unavailable ? '' : ', or tick “Show unavailable” to see offers that are booked for this window'}.
              </p>
            </div>
          ) : (
            <>
              <ul class="offer-list">
                {offers.map((offer) => (
                  <OfferCard key={offer.id} offer={offer} filters={filters} />
                ))}
              </ul>
              {nextCursor && (
                <LoadMore id="load-more" loading={loadingMore} error={moreError} onLoad={() => void loadMore()} />
              )}
            </>
          )}
        </section>
      </div>
    </>
  );
}

interface FilterPanelProps {
  filters: CatalogFilters;
  models: GpuModel[] | null;
  modelsFailed: boolean;
  regions: string[];
  serverFields: FieldProblem[];
  busy: boolean;
  onApply: (filters: CatalogFilters) => void;
}

function FilterPanel({ filters, models, modelsFailed, regions, serverFields, busy, onApply }: FilterPanelProps) {
  const [draft, setDraft] = useState<Draft>(() => draftFrom(filters));
  const [clientFields, setClientFields] = useState<FieldProblem[]>([]);
  const formRef = useRef<HTMLFormElement>(null);

  // Back/forward or a shared link: the form shows what the URL says.
  useEffect(() => {
    setDraft(draftFrom(filters));
    setClientFields([]);
  }, [filters]);

  const fields = clientFields.length > 0 ? clientFields : serverFields;
  const fieldError = (name: string) =>
    fields
      .filter((field) => field.field === name)
      .map((field) => field.detail)
      .join(' ');

  const update = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
  };

  const onSubmit = (event: JSX.TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validate(draft);
    setClientFields(result.fields);
    if (!result.filters) {
      const first = FIELD_IDS[result.fields[0]?.field ?? ''];
      if (first) {
        formRef.current?.querySelector<HTMLElement>(`#${first}`)?.focus();
      }
      return;
    }
    onApply(result.filters);
  };

  const reset = () => {
    setClientFields([]);
    onApply(EMPTY_FILTERS);
  };

  const modelOptions = models ?? [];
  const knownModel = draft.gpu_model === '' || modelOptions.some((model) => model.name === draft.gpu_model);

  /** Props for a control: invalid state and its hint/error descriptions. */
  const { describe, errorLine } = fieldErrorHelpers(fieldError, FIELD_IDS);

  return (
    <form
      id="catalog-filters"
      ref={formRef}
      class="form panel catalog-filters"
      noValidate
      aria-labelledby="catalog-filters-heading"
      onSubmit={onSubmit}
    >
      <h2 id="catalog-filters-heading">Filters</h2>
      {clientFields.length > 0 && (
        <div id="catalog-filters-error" class="alert alert--error" role="alert">
          <p>Please correct the highlighted {clientFields.length === 1 ? 'field' : 'fields'}.</p>
        </div>
      )}
      <div class="field">
        <label for="filter-gpu-model">GPU model</label>
        <select
          id="filter-gpu-model"
          name="gpu_model"
          value={draft.gpu_model}
          {...describe('gpu_model', modelsFailed ? 'filter-gpu-model-hint' : undefined)}
          onChange={(event) => update('gpu_model', event.currentTarget.value)}
        >
          <option value="">Any</option>
          {!knownModel && <option value={draft.gpu_model}>{draft.gpu_model}</option>}
          {modelOptions.map((model) => (
            <option key={model.name} value={model.name}>
              {model.name} ({formatGb(model.vram_gb)})
            </option>
          ))}
        </select>
        {modelsFailed && (
          <p id="filter-gpu-model-hint" class="hint">
            The model list could not be loaded.
          </p>
        )}
        {errorLine('gpu_model')}
      </div>
      <div class="field-row">
        <div class="field">
          <label for="filter-min-vram">Min VRAM per GPU (GB)</label>
          <input
            id="filter-min-vram"
            type="number"
            name="min_vram_gb"
            inputMode="numeric"
            min={1}
            step={1}
            value={draft.min_vram_gb}
            {...describe('min_vram_gb')}
            onInput={(event) => update('min_vram_gb', event.currentTarget.value)}
          />
          {errorLine('min_vram_gb')}
        </div>
        <div class="field">
          <label for="filter-min-gpus">Min GPUs</label>
          <input
            id="filter-min-gpus"
            type="number"
            name="min_gpus"
            inputMode="numeric"
            min={1}
            step={1}
            value={draft.min_gpus}
            {...describe('min_gpus')}
            onInput={(event) => update('min_gpus', event.currentTarget.value)}
          />
          {errorLine('min_gpus')}
        </div>
      </div>
      <div class="field">
        <label for="filter-region">Region</label>
        <input
          id="filter-region"
          type="text"
          name="region"
          list="filter-region-options"
          autoComplete="off"
          spellcheck={false}
          placeholder="Any, e.g. us-east"
          value={draft.region}
          {...describe('region')}
          onInput={(event) => update('region', event.currentTarget.value)}
        />
        <datalist id="filter-region-options">
          {regions.map((region) => (
            <option key={region} value={region} />
          ))}
        </datalist>
        {errorLine('region')}
      </div>
      <div class="field">
        <label for="filter-start">Start</label>
        <input
          id="filter-start"
          type="datetime-local"
          name="start"
          step={60}
          value={draft.startLocal}
          {...describe('start', 'filter-start-hint')}
          onInput={(event) => update('startLocal', event.currentTarget.value)}
          onChange={(event) => update('startLocal', event.currentTarget.value)}
        />
        <p id="filter-start-hint" class="hint">
          Your local time. Leave empty to start now.
        </p>
        {errorLine('start')}
      </div>
      <div class="field">
        <label for="filter-hours">Hours</label>
        <input
          id="filter-hours"
          type="number"
          name="hours"
          inputMode="numeric"
          min={MIN_HOURS}
          max={MAX_HOURS}
          step={1}
          required
          value={draft.hours}
          {...describe('hours', 'filter-hours-hint')}
          onInput={(event) => update('hours', event.currentTarget.value)}
        />
        <p id="filter-hours-hint" class="hint">
          {MIN_HOURS} to {MAX_HOURS} ({MAX_HOURS / 24} days).
        </p>
        {errorLine('hours')}
      </div>
      <div class="field">
        <label for="filter-sort">Sort by</label>
        <select
          id="filter-sort"
          name="sort"
          value={draft.sort || 'price'}
          {...describe('sort')}
          onChange={(event) => update('sort', event.currentTarget.value)}
        >
          {SORT_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {errorLine('sort')}
      </div>
      <div class="field checkbox">
        <input
          id="filter-include-unavailable"
          type="checkbox"
          name="include_unavailable"
          checked={draft.include_unavailable}
          {...describe('include_unavailable')}
          onChange={(event) => update('include_unavailable', event.currentTarget.checked)}
        />
        <label for="filter-include-unavailable">Show unavailable</label>
        {errorLine('include_unavailable')}
      </div>
      <div class="form-actions">
        <button id="apply-filters" type="submit" class="btn btn--primary" aria-busy={busy ? 'true' : undefined}>
          Apply filters
        </button>
        <button id="reset-filters" type="button" class="btn" onClick={reset}>
          Reset
        </button>
      </div>
    </form>
  );
}

function OfferCard({ offer, filters }: { offer: Offer; filters: CatalogFilters }) {
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
      <p class="offer-card__host muted">Host {offer.host_name}</p>
      <Link
        class="btn offer-card__link"
        href={offerHref(offer.id, { start: filters.start, hours, gpus: gpuCount })}
        aria-describedby={titleId}
      >
        View offer
      </Link>
    </li>
  );
}
