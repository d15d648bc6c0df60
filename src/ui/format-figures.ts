/** Scores, signed differences and durations as every review view (show, watch) prints them. */

export function score(value: number | null): string {
  return value === null ? '-' : value.toFixed(3);
}

export function signed(value: number | null): string {
  if (value === null) return '-';
  const rounded = Number(value.toFixed(3));
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : '±'}${Math.abs(rounded).toFixed(3)}`;
}

/** `48s`, `3m 05s`, `2h 07m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
