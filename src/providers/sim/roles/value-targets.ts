/**
 * Failing checks on the values of a structured answer or a tool call, read into the value
 * rules that fix them (value-rules.ts): a schema check whose reasons name fields
 * (`data/date must be equal to constant`), a javascript check named after a field
 * (`iso-date`, `totals-add-up`), a tool call made with the wrong arguments. Each field maps
 * to a rule by its name; the most often named field comes first.
 */
import type { MutatorFeedback } from '../../../protocol/mutation.js';
import type { ValueFamily } from '../value-rules.js';
import type { Target } from './target.js';

const RULES: Readonly<Record<ValueFamily, { instruction: string; short: string; action: string }>> = {
  dates: {
    instruction: 'Write every date as YYYY-MM-DD.',
    short: 'Dates as YYYY-MM-DD.',
    action: 'Asking for dates as YYYY-MM-DD',
  },
  codes: {
    instruction: 'Write currencies as ISO 4217 codes (GBP, USD, EUR), not symbols.',
    short: 'Currencies as ISO 4217 codes.',
    action: 'Asking for ISO 4217 currency codes',
  },
  numbers: {
    instruction: 'Write amounts as plain numbers: no thousands separators, a point for decimals.',
    short: 'Amounts as plain numbers.',
    action: 'Asking for amounts as plain numbers',
  },
  items: {
    instruction: 'List every line item, discounts and credits included, negative amounts kept negative.',
    short: 'List every line item, discounts included.',
    action: 'Asking for every line item, discounts included',
  },
  'tool-results': {
    instruction:
      'Take ids from the tool results: null when the tool finds nothing, and of several matches the one the document confirms.',
    short: 'Take ids from the tool results (null when none).',
    action: 'Asking for ids taken from the tool results',
  },
  verbatim: {
    instruction: "Pass names exactly as printed: the sender's name, not the addressee's.",
    short: 'Names exactly as printed.',
    action: 'Asking for names exactly as printed',
  },
};

/** The rules a field's name calls for, most telling first. */
function familiesFor(field: string): ValueFamily[] {
  const f = field.toLowerCase();
  if (/(?:^|[_-])id$/.test(f)) return ['tool-results'];
  if (/date/.test(f)) return ['dates'];
  if (/currenc/.test(f)) return ['codes'];
  if (/items?$|lines?$/.test(f)) return ['items'];
  // "sum" as a word of the name (totals-sum, sum-of-lines), not inside another (summary).
  if (/add[_-]?up|(?:^|[_-])sums?(?:$|[_-])/.test(f)) return ['numbers', 'items'];
  if (/tax|total|amount|price/.test(f)) return ['numbers'];
  if (/name|vendor|supplier|number|reference/.test(f)) return ['verbatim'];
  return [];
}

/** Field names in a schema check's reasons: `data/vendor_id must …`, `must have required property 'x'`. */
function fieldsIn(reason: string): string[] {
  const paths = [...reason.matchAll(/\bdata\/([\w/]+) must\b/g)].map(
    (m) => (m[1] as string).split('/')[0] as string,
  );
  const required = [...reason.matchAll(/required property '(\w+)'/g)].map((m) => m[1] as string);
  return [...paths, ...required];
}

export function valueTargets(
  check: MutatorFeedback['check_failures'][number],
  reasons: string[],
  effect: string,
): Target[] {
  const counts = new Map<ValueFamily, number>();
  const add = (families: ValueFamily[], weight = 1) => {
    for (const family of families) counts.set(family, (counts.get(family) ?? 0) + weight);
  };
  if (check.type === 'tool-call' && reasons.some((r) => /\bbut not with\b/.test(r))) add(['verbatim']);
  else if (check.type === 'is-json' || check.type === 'contains-json')
    for (const reason of reasons) for (const field of fieldsIn(reason)) add(familiesFor(field));
  else if (check.type === 'javascript') add(familiesFor(check.name.replace(/^(?:iso|valid|check)[_-]/i, '')));
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([family]) => ({ family, ...RULES[family], effect }));
}
