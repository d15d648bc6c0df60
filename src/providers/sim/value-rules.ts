/**
 * Instructions about the values a structured answer or a tool call holds (docs/sim.md,
 * "Structured output"): how to write dates, currencies and amounts, which line items to list,
 * where ids come from, and copying names exactly as printed. The document reader
 * (roles/document-fields.ts) obeys them; the mutator proposes them when field checks fail.
 */
export type ValueFamily = 'dates' | 'codes' | 'numbers' | 'items' | 'tool-results' | 'verbatim';

/** A family is stated by any clause matching its pattern (the rule's own wording may say "no …"). */
export const VALUE_PATTERNS: Readonly<Record<ValueFamily, RegExp>> = {
  dates: /\bYYYY-MM-DD\b|\bISO[ -]?8601\b|\bISO(?:-format)? dates?\b/i,
  codes: /\bISO[ -]?4217\b|\b(?:three|3)-letter (?:currency )?codes?\b/i,
  numbers: /\bplain numbers?\b|\bthousands? separators?\b|\bdecimal (?:points?|commas?)\b/i,
  items:
    /\b(?:every|each|all(?: the)?) line items?\b|\bline items?\b[^.]{0,60}\b(?:discounts?|credits?|negative)\b/i,
  'tool-results':
    /\btool(?:'s)? (?:results?|repl(?:y|ies)|answers?)\b|\b(?:the tool|lookup) (?:returns?|returned|finds?|found)\b/i,
  verbatim: /\bexactly as (?:printed|written|it appears|shown)\b|\bverbatim\b/i,
};

export const VALUE_FAMILIES = Object.keys(VALUE_PATTERNS) as ValueFamily[];
