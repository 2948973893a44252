import { type CatalogFilters } from '../../catalog-filters';
import {
  localInputToUtc,
  MAX_HOURS,
  MIN_HOURS,
  parseHours,
  utcToLocalInput,
  type FieldProblem,
} from '../../offers';
import { WORKLOAD_PARAMS } from '../../workloads';

/** Filter fields: query parameter → form control id. */
export const FIELD_IDS: Record<string, string> = {
  gpu_model: 'filter-gpu-model',
  min_vram_gb: 'filter-min-vram',
  min_gpus: 'filter-min-gpus',
  region: 'filter-region',
  start: 'filter-start',
  hours: 'filter-hours',
  sort: 'filter-sort',
  include_unavailable: 'filter-include-unavailable',
  workload: 'workload-preset',
  ...Object.fromEntries(WORKLOAD_PARAMS.map((name) => [name, `workload-param-${name}`])),
};

export const FIELD_LABELS: Record<string, string> = {
  gpu_model: 'GPU model',
  min_vram_gb: 'Min VRAM per GPU',
  min_gpus: 'Min GPUs',
  region: 'Region',
  start: 'Start',
  hours: 'Hours',
  sort: 'Sort by',
  include_unavailable: 'Show unavailable',
  workload: 'Workload',
};

export interface Problem {
  message: string;
  fields: FieldProblem[];
}

/** The form's editable state: like {@link CatalogFilters}, but start in the viewer's zone. */
export interface Draft extends Omit<CatalogFilters, 'start'> {
  startLocal: string;
}

export function draftFrom(filters: CatalogFilters): Draft {
  const { start, ...rest } = filters;
  return { ...rest, hours: rest.hours || '1', startLocal: utcToLocalInput(start) };
}

/** Client-side checks before the URL changes; the server checks again. */
export function validate(draft: Draft): { filters: CatalogFilters | null; fields: FieldProblem[] } {
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

