/**
 * Measuring and cutting text for the loop. Lengths are in Unicode code points, so an emoji or
 * an accented letter counts once and a cut never splits a surrogate pair. A code-point count
 * is never above `String.length`, so a mutator that measures with `.length` stays within limits.
 */

export const ELLIPSIS = '…';

export function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `text` cut to at most `max` code points, ending with an ellipsis when something was cut. */
export function cutText(text: string, max: number): string {
  if (max <= 0) return '';
  const points = Array.from(text);
  if (points.length <= max) return text;
  return points.slice(0, max - 1).join('') + ELLIPSIS;
}

/** Line breaks and runs of whitespace collapsed to single spaces, ends trimmed. */
export function toOneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * `text` whole when it has at most `max` code points; otherwise its first `max` and a line
 * saying how much was cut, so a reader (the mutator) can tell an output that stops from one
 * we stopped showing.
 */
export function cutMarked(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points.slice(0, Math.max(0, max)).join('')}\n${cutMarker(points.length - max)}`;
}

export function cutMarker(hidden: number): string {
  return `[… cut here: ${hidden} more characters not shown]`;
}
