/**
 * The catalog's filters as the URL holds them (so a link or back/forward shows the same
 * results), and the catalog URL the offer page links back to.
 */
export type SortKey = 'price' | 'price_per_vram_gb' | 'vram' | 'availability';

export const SORT_OPTIONS: readonly { value: SortKey; label: string }[] = [
  { value: 'price', label: 'Lowest price per GPU-hour' },
  { value: 'price_per_vram_gb', label: 'Lowest price per GB of VRAM' },
  { value: 'vram', label: 'Most VRAM per GPU' },
  { value: 'availability', label: 'Most GPUs free' },
];

/** The filters the form edits, as strings (exactly what the URL holds). */
export interface CatalogFilters {
  gpu_model: string;
  min_vram_gb: string;
  min_gpus: string;
  region: string;
  /** RFC 3339 UTC; "" means now. */
  start: string;
  /** "" means the default (1). */
  hours: string;
  /** "" means the default (price). */
  sort: string;
  include_unavailable: boolean;
}

/** Offer filters the API takes that the form does not show; kept when they arrive in a shared link. */
export const EXTRA_FILTERS: readonly { param: string; label: string }[] = [
  { param: 'max_gpus', label: 'at most GPUs' },
  { param: 'site', label: 'site' },
  { param: 'interconnect', label: 'interconnect' },
  { param: 'max_price_per_gpu_hour', label: 'max price per GPU-hour (minor units)' },
];

export const EMPTY_FILTERS: CatalogFilters = {
  gpu_model: '',
  min_vram_gb: '',
  min_gpus: '',
  region: '',
  start: '',
  hours: '',
  sort: '',
  include_unavailable: false,
};

export function filtersFromSearch(search: string): CatalogFilters {
  const params = new URLSearchParams(search);
  const get = (name: string) => (params.get(name) ?? '').trim();
  return {
    gpu_model: get('gpu_model'),
    min_vram_gb: get('min_vram_gb'),
    min_gpus: get('min_gpus'),
    region: get('region'),
    start: get('start'),
    hours: get('hours') === '1' ? '' : get('hours'),
    sort: get('sort') === 'price' ? '' : get('sort'),
    include_unavailable: get('include_unavailable') === 'true',
  };
}

export function extraFiltersFromSearch(search: string): [string, string][] {
  const params = new URLSearchParams(search);
  return EXTRA_FILTERS.flatMap(({ param }) => {
    const value = (params.get(param) ?? '').trim();
    return value ? [[param, value] as [string, string]] : [];
  });
}

/** Filters (plus extras) as query parameters; defaults and empty values are left out. */
export function filtersToParams(filters: CatalogFilters, extras: [string, string][] = []): URLSearchParams {
  const params = new URLSearchParams();
  const set = (name: string, value: string) => {
    if (value.trim() !== '') {
      params.set(name, value.trim());
    }
  };
  set('gpu_model', filters.gpu_model);
  set('min_vram_gb', filters.min_vram_gb);
  set('min_gpus', filters.min_gpus);
  set('region', filters.region);
  set('start', filters.start);
  if (filters.hours !== '1') {
    set('hours', filters.hours);
  }
  if (filters.sort !== 'price') {
    set('sort', filters.sort);
  }
  if (filters.include_unavailable) {
    params.set('include_unavailable', 'true');
  }
  for (const [name, value] of extras) {
    set(name, value);
  }
  return params;
}

let lastCatalogSearch = '';

/** Remembers the catalog query so the offer page can link back to the same results. */
export function rememberCatalogSearch(search: string): void {
  lastCatalogSearch = search;
}

export function catalogHref(): string {
  return `/catalog${lastCatalogSearch}`;
}
