/** Numbers, dates and statuses as the page prints them. */
import type { PairedDecisionRecord, PairedInterval, ScreenRecord } from '../../run/events.js';

export function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

export function score(v: number | null | undefined): string {
  return isNum(v) ? v.toFixed(3) : '–';
}

/** Krippendorff's alpha; `n/a` when no score varied. */
export function alpha(v: number | null | undefined): string {
  return isNum(v) ? v.toFixed(2) : 'n/a';
}

export function signed(v: number | null | undefined): string {
  if (!isNum(v)) return '–';
  const r = Math.round(v * 1000) / 1000;
  return (r > 0 ? '+' : r < 0 ? '−' : '±') + Math.abs(r).toFixed(3);
}

export function usd(v: number): string {
  return v > 0 && v < 0.01 ? '<$0.01' : '$' + v.toFixed(2);
}

function pad(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return s + 's';
  const m = Math.floor(s / 60);
  if (m < 60) return m + 'm ' + pad(s % 60) + 's';
  return Math.floor(m / 60) + 'h ' + pad(m % 60) + 'm';
}

/** Local time, to the minute: the reader's clock, not the run's. */
export function when(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return (
    d.getFullYear() +
    '-' +
    pad(d.getMonth() + 1) +
    '-' +
    pad(d.getDate()) +
    ' ' +
    pad(d.getHours()) +
    ':' +
    pad(d.getMinutes())
  );
}

/** `from → to`, the date said once when both fall on the same day. */
export function span(from: string | null, to: string | null): string {
  const a = when(from);
  const b = when(to);
  if (!a) return '';
  if (!b || a === b) return 'started ' + a;
  return a + ' → ' + (a.slice(0, 10) === b.slice(0, 10) ? b.slice(11) : b);
}

export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}

/** A record's entries in key order, so criteria always print in the same order. */
export function sortedEntries<T>(record: Record<string, T>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `[+0.011, +0.073]`: a paired interval's bounds; '–' below 2 cases. */
export function bounds(interval: PairedInterval | null | undefined): string {
  if (!interval || !isNum(interval.lo) || !isNum(interval.hi)) return '–';
  return '[' + signed(interval.lo) + ', ' + signed(interval.hi) + ']';
}

/** `3▲ 0▼ 1=`: train cases better, worse, the same. */
export function tally(paired: PairedDecisionRecord): string {
  return paired.wins + '▲ ' + paired.losses + '▼ ' + paired.ties + '=';
}

/** `minibatch −0.200`: a screen's one figure. */
export function screenMean(screen: ScreenRecord): string {
  return 'minibatch ' + signed(screen.mean);
}

/** Which way a paired interval points: wholly above zero, below it, or across. */
export function side(interval: PairedInterval | null | undefined): 'up' | 'down' | null {
  if (!interval || !isNum(interval.lo) || !isNum(interval.hi)) return null;
  return interval.lo > 0 ? 'up' : interval.hi < 0 ? 'down' : null;
}
