/**
 * Display formatting with the viewer's locale and time zone (via Intl).
 * Pass `locale` / `timeZone` only where a fixed rendering is needed (tests).
 */

const fractionDigitsCache = new Map<string, number>();

/** ISO 4217 minor-unit digits of `currency` (USD 2, JPY 0, KWD 3). */
export function currencyFractionDigits(currency: string): number {
  const code = currency.toUpperCase();
  let digits = fractionDigitsCache.get(code);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2;
    fractionDigitsCache.set(code, digits);
  }
  return digits;
}

/**
 * Formats an amount given in the currency's minor unit (e.g. cents):
 * `formatMoney(123456, 'USD')` → "$1,234.56" in en-US.
 */
export function formatMoney(amountMinor: number | bigint, currency: string, locale?: string): string {
  const code = currency.toUpperCase();
  const digits = currencyFractionDigits(code);
  const formatter = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: code,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  const minor = typeof amountMinor === 'bigint' ? amountMinor : BigInt(Math.round(amountMinor));
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const scale = 10n ** BigInt(digits);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(digits, '0');
  // Build an exact decimal string so large amounts never lose precision.
  const decimal = `${negative ? '-' : ''}${whole}${digits > 0 ? `.${fraction}` : ''}`;
  // Intl accepts decimal strings (exact) in modern engines; fall back to Number.
  return formatter.format(decimal as unknown as number);
}

/**
 * Formats an ISO-8601 instant as a date and time in the viewer's locale and
 * time zone, with the zone shown: "Mar 4, 2026, 2:30 PM UTC".
 * Returns the input unchanged when it is not a valid date.
 */
export function formatDateTime(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) {
    return iso;
  }
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  }).format(date);
}
