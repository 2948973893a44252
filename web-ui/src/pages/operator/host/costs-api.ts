/** A host's costs over time: `GET/PUT /api/v1/operator/hosts/{host_id}/costs`. */
import { ApiError, fetchJson, getJson } from '../../../api';
import { csrfHeaders, type Me } from '../../../session';

/** What the operator enters; money in minor units of the gateway's currency. */
export interface CostFields {
  purchase_price: number;
  residual_value: number;
  depreciation_months: number;
  electricity_price_per_kwh: number;
  pue: number;
  colocation_per_month: number;
  bandwidth_per_month: number;
  maintenance_per_month: number;
  financing_per_month: number | null;
}

export interface CostPeriod extends CostFields {
  currency: string;
  /** Null: since the host joined. */
  effective_from: string | null;
  updated_at: string;
  updated_by: string;
}

export interface HostCosts extends CostPeriod {
  history: CostPeriod[];
}

/** The host's costs, or null while none are entered. */
export async function getCosts(hostId: string, signal?: AbortSignal): Promise<HostCosts | null> {
  try {
    return await getJson<HostCosts>(`/api/v1/operator/hosts/${encodeURIComponent(hostId)}/costs`,
      { signal, cache: 'no-store' });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      return null;
    }
    throw e;
  }
}

/**
 * Enters the costs from `effectiveFrom`: a whole UTC hour, null for since the host joined, or
 * undefined for the server's default (since joined for the first costs, else the current hour).
 */
export function putCosts(me: Me, hostId: string, currency: string, costs: CostFields,
  effectiveFrom?: string | null): Promise<HostCosts> {
  return fetchJson(`/api/v1/operator/hosts/${encodeURIComponent(hostId)}/costs`, {
    method: 'PUT',
    body: { currency, ...costs, ...(effectiveFrom !== undefined ? { effective_from: effectiveFrom } : {}) },
    headers: csrfHeaders(me),
  });
}
