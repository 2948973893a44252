/**
 * Choosing by workload: `GET /api/v1/workloads` (presets, their parameters, the named
 * architectures) and the workload part of a catalog URL (`workload=<preset>&<its parameters>`),
 * which the catalog passes on to `/api/v1/offers` and the offer page to `/api/v1/offers/{id}`.
 */
import { getJson } from './api';

export interface WorkloadParameter {
  name: string;
  type: 'integer' | 'number' | 'string';
  unit: string | null;
  /** null when the parameter has none. */
  default: string | number | null;
  minimum?: number;
  maximum?: number;
  values?: string[];
  description: string;
}

export interface WorkloadSource {
  title: string;
  url: string;
}

export interface WorkloadPreset {
  id: string;
  name: string;
  summary: string;
  parameters: WorkloadParameter[];
  formula: string;
  sources: WorkloadSource[];
}

export interface ModelArchitecture {
  id: string;
  name: string;
  total_params_b: number;
  active_params_b: number;
  layers: number;
  kv_heads: number | null;
  head_dim: number | null;
  kv_lora_rank: number | null;
  qk_rope_head_dim: number | null;
  max_context: number;
  source: string;
}

/** "70.6B parameters, 80 layers, 8 KV heads × 128; up to 131,072 tokens" */
export function architectureLine(model: ModelArchitecture): string {
  const format = new Intl.NumberFormat();
  const params =
    model.active_params_b !== model.total_params_b
      ? `${format.format(model.total_params_b)}B parameters (${format.format(model.active_params_b)}B active)`
      : `${format.format(model.total_params_b)}B parameters`;
  const cache =
    model.kv_lora_rank !== null
      ? `latent KV cache of ${model.kv_lora_rank} + ${model.qk_rope_head_dim ?? 0} values per layer`
      : `${model.kv_heads} KV heads × ${model.head_dim}`;
  return `${params}, ${model.layers} layers, ${cache}; up to ${format.format(model.max_context)} tokens.`;
}

export interface WorkloadCatalog {
  data: WorkloadPreset[];
  architectures: ModelArchitecture[];
}

export interface WorkloadNeed {
  total_vram_gb: number;
  min_vram_per_gpu_gb: number;
  splittable: boolean;
  fast_interconnect_for_multi_gpu: boolean;
  ram_gb: number;
  disk_gb: number;
  parts: { name: string; gb: number }[];
}

/** An offer's fit: the smallest GPU count that holds the workload and the arithmetic in one sentence. */
export interface WorkloadFit {
  fits: boolean;
  gpu_count: number | null;
  vram_gb: number | null;
  sentence: string;
  need: WorkloadNeed;
}

/** The workload of a search, as the list answer states it. */
export interface WorkloadSearchInfo {
  id: string;
  name: string;
  parameters: Record<string, string | number | null>;
  need: WorkloadNeed;
  /** What it would need, when no offer of the search could hold it. */
  unmet: string | null;
}

/** Every query parameter some preset takes (the server refuses those its preset does not). */
export const WORKLOAD_PARAMS = [
  'model', 'params_b', 'precision', 'context', 'sequences', 'method', 'sequence_length', 'batch', 'lora_rank',
  'resolution', 'scene_gb', 'dataset_gb',
] as const;

/** A chosen workload: the preset id and the parameters set (as the URL holds them). */
export interface ChosenWorkload {
  id: string;
  params: Record<string, string>;
}

export function listWorkloads(signal?: AbortSignal): Promise<WorkloadCatalog> {
  return getJson<WorkloadCatalog>('/api/v1/workloads', { signal });
}

export function workloadFromSearch(search: string): ChosenWorkload | null {
  const query = new URLSearchParams(search);
  const id = (query.get('workload') ?? '').trim();
  if (!id) {
    return null;
  }
  const params: Record<string, string> = {};
  for (const name of WORKLOAD_PARAMS) {
    const value = (query.get(name) ?? '').trim();
    if (value) {
      params[name] = value;
    }
  }
  return { id, params };
}

/** Adds the workload (if any) to `query`. */
export function addWorkload(query: URLSearchParams, workload: ChosenWorkload | null): URLSearchParams {
  if (workload) {
    query.set('workload', workload.id);
    for (const [name, value] of Object.entries(workload.params)) {
      if (value.trim() !== '') {
        query.set(name, value.trim());
      }
    }
  }
  return query;
}

/** The preset's parameters worth showing for the current values (LLM: model or params_b, not both). */
export function shownParameters(preset: WorkloadPreset, values: Record<string, string>): WorkloadParameter[] {
  const custom = values.model === CUSTOM_MODEL;
  return preset.parameters.filter((parameter) => {
    if (parameter.name === 'params_b') {
      return custom;
    }
    if (parameter.name === 'lora_rank') {
      return (values.method ?? 'lora') !== 'full';
    }
    return true;
  });
}

/** The model select's entry for "a size instead of a named model". */
export const CUSTOM_MODEL = '__custom';

/** "8,192 tokens (128 to 1,048,576)" */
export function parameterHint(parameter: WorkloadParameter): string {
  const format = new Intl.NumberFormat();
  if (parameter.values) {
    return parameter.description;
  }
  const unit = parameter.unit ? ` ${parameter.unit}` : '';
  return `${parameter.description} ${format.format(parameter.minimum ?? 0)} to ${format.format(parameter.maximum ?? 0)}${unit}.`;
}
