import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { LoadMore } from '../../load-more';
import {
  EXTRA_FILTERS,
  extraFiltersFromSearch,
  filtersFromSearch,
  filtersToParams,
  rememberCatalogSearch,
  type CatalogFilters,
} from '../../catalog-filters';
import {
  errorText,
  fieldProblems,
  isAbort,
  listGpuModels,
  listOffers,
  OFFER_PAGE_SIZE,
  type GpuModel,
  type Offer,
} from '../../offers';
import { usePagedList } from '../../paged-list';
import { navigate, useSearch } from '../../router';
import { FIELD_IDS, FIELD_LABELS, type Problem } from './filter-draft';
import { FilterPanel } from './FilterPanel';
import { OfferCard } from './OfferCard';
import { FleetReadyTime } from './FleetReadyTime';
import { WorkloadPanel } from './WorkloadPanel';
import {
  addWorkload,
  listWorkloads,
  workloadFromSearch,
  type ChosenWorkload,
  type WorkloadCatalog,
  type WorkloadSearchInfo,
} from '../../workloads';
import './catalog.css';

/** `/catalog`: offers filtered by the URL's query, with the filter form beside them. */
export function CatalogPage() {
  const search = useSearch();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const extras = useMemo(() => extraFiltersFromSearch(search), [search]);
  const workload = useMemo(() => workloadFromSearch(search), [search]);
  const apiQuery = useMemo(() => {
    const params = addWorkload(filtersToParams(filters, extras), workload);
    params.set('limit', String(OFFER_PAGE_SIZE));
    return params.toString();
  }, [filters, extras, workload]);

  const [models, setModels] = useState<GpuModel[] | null>(null);
  const [modelsFailed, setModelsFailed] = useState(false);
  const [regions, setRegions] = useState<string[]>([]);
  const alertRef = useRef<HTMLDivElement>(null);
  const [workloads, setWorkloads] = useState<WorkloadCatalog | null>(null);
  const [workloadsFailed, setWorkloadsFailed] = useState(false);
  const [workloadInfo, setWorkloadInfo] = useState<WorkloadSearchInfo | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    listWorkloads(controller.signal)
      .then((answer) => setWorkloads(answer && Array.isArray(answer.data) ? answer : { data: [], architectures: [] }))
      .catch((error) => {
        if (!isAbort(error)) {
          setWorkloadsFailed(true);
        }
      });
    return () => controller.abort();
  }, []);

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
      return listOffers(params, signal).then((page) => {
        if (!cursor) {
          setWorkloadInfo(page?.workload ?? null);
        }
        return page;
      });
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

  const show = (params: URLSearchParams) => {
    const qs = params.toString();
    const href = `/catalog${qs ? `?${qs}` : ''}`;
    if (href === `/catalog${window.location.search}`) {
      reload();
    } else {
      navigate(href);
    }
  };

  const apply = (next: CatalogFilters) => show(addWorkload(filtersToParams(next, extras), workload));
  const applyWorkload = (next: ChosenWorkload | null) => show(addWorkload(filtersToParams(filters, extras), next));

  const clearExtras = () => {
    const qs = addWorkload(filtersToParams(filters), workload).toString();
    navigate(`/catalog${qs ? `?${qs}` : ''}`);
  };

  const serverFields = problem?.fields ?? [];

  return (
    <>
      <h1>Catalog</h1>
      <p class="lead">Bookable GPU capacity with all-in hourly prices: fees and taxes included.</p>
      <FleetReadyTime />
      <WorkloadPanel
        catalog={workloads}
        failed={workloadsFailed}
        chosen={workload}
        serverFields={workload ? serverFieldsOf(problem) : []}
        busy={loading}
        onApply={applyWorkload}
      />
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
          {workload && workloadInfo && !problem && (
            <div id="workload-summary" class={workloadInfo.unmet ? 'note workload-summary' : 'notice workload-summary'}>
              {workloadInfo.unmet ? (
                <p id="workload-unmet">{workloadInfo.unmet}</p>
              ) : (
                <p>
                  {workloadInfo.name}: needs {formatGbFigure(workloadInfo.need.total_vram_gb)} of VRAM in all
                  {workloadInfo.need.splittable
                    ? workloadInfo.need.fast_interconnect_for_multi_gpu
                      ? ', on one GPU or several joined by NVLink'
                      : ', on one GPU or split over several'
                    : ', on a single GPU'}
                  . Each offer is shown at the fewest GPUs that hold it, priced for them; by price, the cheapest
                  window in all comes first.
                </p>
              )}
            </div>
          )}
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
              <p>{workload ? 'No offer matching these filters holds this workload in this window.' : 'No offers match these filters.'}</p>
              <p>
                Try a lower minimum, another region or a later start
                {filters.include_unavailable ? '' : ', or tick “Show unavailable” to see offers that are booked for this window'}.
              </p>
            </div>
          ) : (
            <>
              <ul class="offer-list">
                {offers.map((offer) => (
                  <OfferCard key={offer.id} offer={offer} filters={filters} workload={workload} />
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


/** The field problems of a failed search (for the workload form). */
function serverFieldsOf(problem: Problem | null) {
  return problem?.fields ?? [];
}

const gbFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** "178.9 GB" */
function formatGbFigure(gb: number): string {
  return `${gbFormat.format(gb)} GB`;
}
