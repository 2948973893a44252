/** Live countdowns: a clock that ticks every second, and "12 min 05 s" style durations. */
import { useEffect, useState } from 'preact/hooks';

/** The current time in ms; re-renders every second while `active`. */
export function useNow(active: boolean): number {
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

/** A remaining duration: "2 h 5 min", "4 min 07 s", "9 s" (never negative). */
export function formatRemaining(ms: number): string {
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

/** "1 h 04 min 09 s", "4 min 07 s", "9 s": ticks visibly every second. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 3600) {
    return formatRemaining(ms);
  }
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${hours} h ${String(minutes).padStart(2, '0')} min ${String(seconds).padStart(2, '0')} s`;
}

/** Like {@link formatCountdown}, with days for long waits: "3 d 04 h 05 min". */
export function formatLongCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  if (total < 86400) {
    return formatCountdown(ms);
  }
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `${days} d ${String(hours).padStart(2, '0')} h ${String(minutes).padStart(2, '0')} min`;
}

const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/**
 * A coarse "in 3 hours" / "in 12 minutes" in the viewer's language, for screen readers: it
 * changes rarely, unlike the ticking countdown.
 */
export function formatApproxIn(ms: number): string {
  const minutes = Math.ceil(Math.max(0, ms) / 60000);
  if (minutes < 60) {
    return relativeFormat.format(Math.max(1, minutes), 'minute');
  }
  const hours = Math.round(minutes / 60);
  if (hours < 48) {
    return relativeFormat.format(hours, 'hour');
  }
  return relativeFormat.format(Math.round(hours / 24), 'day');
}
