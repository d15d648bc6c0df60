/**
 * The expectations `autoresearch grade` reads: a YAML or JSON list of strings (or an object
 * with an `expectations` list), else one expectation per non-empty line (a leading `- ` dropped).
 */
import { parse } from 'yaml';

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return undefined;
  return value as string[];
}

export function parseExpectations(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch {
    parsed = undefined;
  }
  const list =
    stringList(parsed) ??
    (typeof parsed === 'object' && parsed !== null
      ? stringList((parsed as Record<string, unknown>)['expectations'])
      : undefined);
  // A list YAML reads as something else (e.g. "- Asks: for a call" is a mapping) is still a list of lines.
  const items = list ?? text.split(/\r?\n/).map((line) => line.replace(/^\s*[-*]\s+/, ''));
  return items.map((item) => item.trim()).filter((item) => item !== '');
}
