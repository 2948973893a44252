/** Budgets of API tokens (`/api/v1/tokens/{id}`, `/budget`) and the account's default (`/api/v1/account/default-budget`). */
import { fetchJson, getJson } from './api';
import { currencyFractionDigits } from './format';
import { csrfHeaders, type Me } from './session';

/** The caps, in minor units (null: no cap). */
export interface BudgetCaps {
  daily_cap: number | null;
  monthly_cap: number | null;
  total_cap: number | null;
  max_price_per_gpu_hour: number | null;
  max_hours: number | null;
  approval_threshold: number | null;
}

export interface BudgetReport extends BudgetCaps {
  currency: string;
  spent: { today: number; this_month: number; total: number };
  remaining: { today: number | null; this_month: number | null; total: number | null };
}

export interface TokenWithBudget {
  id: string;
  name: string;
  prefix: string;
  budget: BudgetReport | null;
}

export interface DefaultBudget {
  default_budget: (BudgetCaps & { currency: string }) | null;
}

export const CAP_FIELDS: readonly { key: keyof BudgetCaps; label: string; money: boolean; hint: string }[] = [
  { key: 'daily_cap', label: 'Per day', money: true, hint: 'UTC day' },
  { key: 'monthly_cap', label: 'Per month', money: true, hint: 'UTC calendar month' },
  { key: 'total_cap', label: 'In total', money: true, hint: 'over the token’s life' },
  { key: 'max_price_per_gpu_hour', label: 'Max price per GPU-hour', money: true, hint: 'all-in' },
  { key: 'max_hours', label: 'Longest booking (hours)', money: false, hint: 'per reservation or extension' },
  { key: 'approval_threshold', label: 'Ask me to approve above', money: true, hint: 'a new reservation’s total' },
];

export function getTokenBudget(id: string): Promise<TokenWithBudget> {
  return getJson<TokenWithBudget>(`/api/v1/tokens/${encodeURIComponent(id)}`, { cache: 'no-store' });
}

export function setTokenBudget(me: Me, id: string, caps: Partial<BudgetCaps>): Promise<TokenWithBudget> {
  return fetchJson<TokenWithBudget>(`/api/v1/tokens/${encodeURIComponent(id)}/budget`, {
    method: 'PUT',
    body: caps,
    headers: csrfHeaders(me),
  });
}

export function getDefaultBudget(): Promise<DefaultBudget> {
  return getJson<DefaultBudget>('/api/v1/account/default-budget', { cache: 'no-store' });
}

export function setDefaultBudget(me: Me, caps: Partial<BudgetCaps> | null): Promise<DefaultBudget> {
  return fetchJson<DefaultBudget>('/api/v1/account/default-budget', {
    method: caps === null ? 'DELETE' : 'PUT',
    ...(caps === null ? {} : { body: caps }),
    headers: csrfHeaders(me),
  });
}

/** "12.50" in `currency` → 1250 minor units; '' → null; undefined when it is not an amount. */
export function toMinor(text: string, currency: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') {
    return null;
  }
  const digits = currencyFractionDigits(currency);
  const match = new RegExp(`^(\\d{1,12})(?:[.,](\\d{1,${Math.max(digits, 1)}}))?$`).exec(trimmed);
  if (!match || (digits === 0 && match[2])) {
    return undefined;
  }
  const fraction = (match[2] ?? '').padEnd(digits, '0');
  return Number(match[1]) * 10 ** digits + (digits > 0 ? Number(fraction) : 0);
}

/** 1250 minor units → "12.50" (for an input); null → ''. */
export function fromMinor(amount: number | null, currency: string): string {
  if (amount === null) {
    return '';
  }
  const digits = currencyFractionDigits(currency);
  return digits === 0 ? String(amount) : (amount / 10 ** digits).toFixed(digits);
}
