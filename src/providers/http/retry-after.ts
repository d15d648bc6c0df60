/**
 * How long the server asked us to wait: `retry-after-ms` (OpenAI) first, then `retry-after`
 * as seconds or an HTTP date. Undefined when absent or unreadable.
 */

/** What we read of response headers (a fetch `Headers`, as the SDK errors carry, has this shape). */
export interface HeaderReader {
  get(name: string): string | null;
}

export function parseRetryAfter(headers: HeaderReader, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
