/**
 * Model-written text inside our requests is fenced by markers carrying a tag derived from
 * the text itself: the text cannot guess the tag, so it cannot close the fence and pose as
 * instructions, and the same text always gets the same request (cache keys stay stable).
 */
import { sha256Hex } from '../sha256.js';

export function fenceTag(text: string): string {
  return sha256Hex(text).slice(0, 10);
}

export function openMarker(label: string, tag: string): string {
  return `⟦BEGIN ${label} ${tag}⟧`;
}

export function closeMarker(label: string, tag: string): string {
  return `⟦END ${label} ${tag}⟧`;
}

/** `⟦BEGIN LABEL tag⟧\n<text>\n⟦END LABEL tag⟧` */
export function fence(label: string, text: string): string {
  const tag = fenceTag(text);
  return `${openMarker(label, tag)}\n${text}\n${closeMarker(label, tag)}`;
}

/** Every fenced text with this label in a message, in order (the inverse of `fence`). */
export function unfenceAll(label: string, message: string): string[] {
  const found: string[] = [];
  const open = new RegExp(`⟦BEGIN ${escapeRegExp(label)} ([0-9a-f]{10})⟧\\n`, 'g');
  for (const match of message.matchAll(open)) {
    const start = match.index + match[0].length;
    const end = message.indexOf(`\n${closeMarker(label, match[1] as string)}`, start);
    if (end >= 0) found.push(message.slice(start, end));
  }
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
