/**
 * The simulated generator reading a document (an invoice, a receipt, an order) for the values
 * of a structured answer or a tool call: dates, currencies, amounts, reference numbers, the
 * sender's name, line items, and ids from tool results. How well it reads follows the value
 * rules the instructions state (value-rules.ts), each obeyed or not by a seeded draw:
 * without them it copies dates and currency signs as printed, reads "1.335,18" as 1.335,
 * leaves out negative lines, takes the first line as the sender and the first of several
 * matches a tool returns. A key the document says nothing about is left to the schema's guess.
 */
import { isRecord } from '../../../is-record.js';
import type { ValueFamily } from '../value-rules.js';

export interface FieldReader {
  /** The value of `key` as read; `undefined` when the document says nothing about it. */
  value(key: string): unknown;
  /** The document's rows (line items) for an array key, each a reader of its own. */
  rows(key: string): FieldReader[] | undefined;
}

export interface DocumentSource {
  /** The text the request is about: the newest user message. */
  text: string;
  /** Tool results that came back since. */
  toolResults: readonly string[];
  /** The value rules this reply obeys. */
  obeyed: ReadonlySet<ValueFamily>;
}

const CURRENCY_SIGNS: Readonly<Record<string, string>> = { '£': 'GBP', $: 'USD', '€': 'EUR', '¥': 'JPY' };
const CODES = 'USD|EUR|GBP|JPY|CHF|CAD|AUD|SEK|NOK|DKK|PLN|INR|CNY';
const SIGN = '[£$€¥]';
const NUMBER = '\\d{1,3}(?:[.,]\\d{3})+(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)?';
/**
 * An amount with its currency before or after it, optionally negative. A sign between two
 * numbers goes with the nearer one: "5 £24.00" and "5   £24.00" are £24.00, "289,00 €   867,00 €" two amounts.
 */
const MONEY = new RegExp(
  `(-)?(?:(?:${SIGN}|\\b(?:${CODES})\\b)[ \\t]*(-)?(${NUMBER})|(${NUMBER}) ?(?:${SIGN}|\\b(?:${CODES})\\b)(?![ \\t]?-?\\d))`,
  'g',
);
const CURRENCY = new RegExp(`${SIGN}|\\b(?:${CODES})\\b`);
const TOTAL = /\b(?:total|amount due|balance due|gesamtbetrag|summe|to pay)\b/i;
const SUBTOTAL = /\b(?:sub-?total|netto\w*|net amount)\b/i;
const TAX = /\b(?:tax|vat|btw|mwst|gst|iva|tva)\b/i;
const CODE = /(?<![\w-])#?([A-Z]{1,6}-[A-Z0-9-]*\d[A-Z0-9]*)\b/;
const SENDER = /^\s*(?:from|vendor|supplier|seller|issued by|sold by)\s*:\s*(.+)$/im;
const DATE_LABEL = /\b(?:date|dated|datum|issued)\b/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const DATES: { pattern: RegExp; parts: (m: RegExpExecArray) => [string, string, string] }[] = [
  { pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/, parts: (m) => [m[1], m[2], m[3]] as [string, string, string] },
  {
    pattern: /\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b/,
    parts: (m) => [m[3], m[2], m[1]] as [string, string, string],
  },
  {
    pattern: new RegExp(`\\b(\\d{1,2}) ${MONTH},? (\\d{4})\\b`, 'i'),
    parts: (m) => [m[3], month(m[2]), m[1]] as [string, string, string],
  },
  {
    pattern: new RegExp(`\\b${MONTH} (\\d{1,2}),? (\\d{4})\\b`, 'i'),
    parts: (m) => [m[3], month(m[1]), m[2]] as [string, string, string],
  },
];

function month(name: string | undefined): string {
  return String(MONTHS.indexOf((name ?? '').slice(0, 3).toLowerCase()) + 1);
}

/** The document without the request lines before it ("Extract the fields of this invoice."). */
function documentOf(text: string): string {
  const paragraphs = text.split(/\n\s*\n/);
  while (paragraphs.length > 1 && /^[^\n\d]*$/.test((paragraphs[0] as string).trim())) paragraphs.shift();
  return paragraphs.join('\n\n').trim();
}

/** "1.335,18" → 1335.18 when reading carefully; a careless reader stops at the first separator it does not expect. */
function parseNumber(raw: string, careful: boolean): number {
  if (!careful) return Number.parseFloat(raw.replace(/,(?=\d{1,2}$)/, '.').replace(/,.*$/, ''));
  const lastDot = raw.lastIndexOf('.');
  const lastComma = raw.lastIndexOf(',');
  let normal = raw;
  if (lastDot >= 0 && lastComma >= 0)
    normal = lastComma > lastDot ? raw.replace(/\./g, '').replace(',', '.') : raw.replace(/,/g, '');
  else if (lastComma >= 0) normal = /,\d{1,2}$/.test(raw) ? raw.replace(',', '.') : raw.replace(/,/g, '');
  else if (/^[1-9]\d{0,2}(?:\.\d{3})+$/.test(raw)) normal = raw.replace(/\./g, '');
  return Number.parseFloat(normal);
}

interface Money {
  value: number;
  index: number;
}

function amounts(text: string, careful: boolean): Money[] {
  return [...text.matchAll(MONEY)].map((m) => {
    const negative = m[1] !== undefined || m[2] !== undefined;
    const value = parseNumber((m[3] ?? m[4]) as string, careful);
    return { value: negative ? -value : value, index: m.index ?? 0 };
  });
}

/** A line's parts: "Subtotal £486.00 · VAT 20% £97.20 · Total due £583.20" is three. */
function segments(line: string): string[] {
  return line.split(/\s+[·|]\s+|\s+[—–]\s+/);
}

function labelledAmount(lines: string[], label: RegExp, careful: boolean, last: boolean): number | undefined {
  const found = lines
    .flatMap(segments)
    .filter((segment) => label.test(segment) && (label === SUBTOTAL || !SUBTOTAL.test(segment)))
    .map((segment) => amounts(segment, careful).at(-1)?.value)
    .filter((value): value is number => value !== undefined);
  return last ? found.at(-1) : found[0];
}

function readDate(document: string, careful: boolean): string | undefined {
  const labelled = document.split('\n').filter((line) => DATE_LABEL.test(line));
  for (const text of [...labelled, document])
    for (const { pattern, parts } of DATES) {
      const match = pattern.exec(text);
      if (!match) continue;
      if (!careful) return match[0];
      const [year, m, day] = parts(match);
      return `${year}-${m.padStart(2, '0')}-${day.padStart(2, '0')}`;
    }
  return undefined;
}

function readCurrency(document: string, careful: boolean): string | undefined {
  const found = CURRENCY.exec(document)?.[0];
  return found === undefined || !careful ? found : (CURRENCY_SIGNS[found] ?? found);
}

function readSender(document: string, careful: boolean): string | undefined {
  const labelled = careful ? SENDER.exec(document)?.[1] : undefined;
  const first = document.split('\n')[0] ?? '';
  return (labelled ?? segments(first)[0] ?? '').trim() || undefined;
}

function toolObjects(results: readonly string[]): Record<string, unknown>[] {
  return results.flatMap((text) => {
    try {
      const value: unknown = JSON.parse(text);
      return isRecord(value) ? [value] : [];
    } catch {
      return [];
    }
  });
}

/** An id from the tool results: the one entry that has it, or among several matches the one the document confirms. */
function readId(key: string, source: DocumentSource, document: string): unknown {
  const careful = source.obeyed.has('tool-results');
  const objects = toolObjects(source.toolResults);
  if (objects.length === 0) return undefined;
  for (const object of objects) {
    if (key in object) return object[key];
    const lists = Object.values(object).filter(Array.isArray);
    const matches = lists
      .flat()
      .filter((entry): entry is Record<string, unknown> => isRecord(entry) && key in entry);
    if (matches.length === 0) continue;
    if (!careful) return matches[0]?.[key];
    const flat = document.replace(/\s+/g, ' ');
    const confirmed = (entry: Record<string, unknown>) =>
      Object.values(entry).filter((v) => typeof v === 'string' && flat.includes(v.replace(/\s+/g, ' ')))
        .length;
    return [...matches].sort((a, b) => confirmed(b) - confirmed(a))[0]?.[key];
  }
  // The tool found nothing: a careful reader says so; a careless one makes something up.
  return careful ? null : undefined;
}

function lineItems(document: string, source: DocumentSource): FieldReader[] {
  const careful = source.obeyed.has('numbers');
  const everyLine = source.obeyed.has('items');
  const rows: FieldReader[] = [];
  for (const line of document.split('\n')) {
    const money = amounts(line, careful);
    const last = money.at(-1);
    if (last === undefined || segments(line).some((s) => TOTAL.test(s) || TAX.test(s) || SUBTOTAL.test(s)))
      continue;
    if (last.value < 0 && !everyLine) continue;
    const count =
      /(\d[\d,.]*)\s*(?:[A-Za-z]+\s+)?x\s/.exec(line)?.[1] ??
      /^\s*(?:\d+\s+)*?(\d+)\s+[^\d\s]/.exec(line)?.[1];
    const quantity = count === undefined ? 1 : parseNumber(count, careful);
    const description = line
      .slice(0, (money[0] as Money).index)
      .replace(/^\s*[\d,.]+\s*(?:[A-Za-z]+\s+)?x\s+/, '')
      .replace(/^\s*(?:\d+\s+)+/, '')
      .replace(/(\d[\d,.]*)\s*(?:[A-Za-z]+\s+)?x\s*$/, '')
      .replace(/[\s=@,]+$/, '')
      .trim();
    const unit = money.length > 1 ? (money[0] as Money).value : last.value / (quantity || 1);
    rows.push(rowReader({ description, quantity, unit, amount: last.value }));
  }
  return rows;
}

function rowReader(row: {
  description: string;
  quantity: number;
  unit: number;
  amount: number;
}): FieldReader {
  return {
    value(key) {
      const k = key.toLowerCase();
      if (/unit|price|rate/.test(k)) return row.unit;
      if (/qty|quantit|count|units/.test(k)) return row.quantity;
      if (/amount|total|sum|net|value/.test(k)) return row.amount;
      if (/desc|name|item|product|label|text|title/.test(k)) return row.description;
      return undefined;
    },
    rows: () => undefined,
  };
}

export function readDocument(source: DocumentSource): FieldReader {
  const document = documentOf(source.text);
  const lines = document.split('\n');
  const careful = (family: ValueFamily) => source.obeyed.has(family);
  return {
    value(key) {
      const k = key.toLowerCase();
      if (/(?:^|_)id$/.test(k)) return readId(key, source, document);
      if (/date|dated|issued/.test(k)) return readDate(document, careful('dates'));
      if (/currenc/.test(k)) return readCurrency(document, careful('codes'));
      if (/sub_?total|net_?amount/.test(k)) return labelledAmount(lines, SUBTOTAL, careful('numbers'), false);
      if (/tax|vat/.test(k)) return labelledAmount(lines, TAX, careful('numbers'), false) ?? 0;
      if (/total|amount_due|grand/.test(k)) return labelledAmount(lines, TOTAL, careful('numbers'), true);
      if (/number|(?:^|_)no$|reference|(?:^|_)ref$/.test(k)) return CODE.exec(document)?.[1];
      if (/(?:^|_)(?:name|vendor|supplier|seller|merchant|company|issuer|sender)$/.test(k))
        return readSender(document, careful('verbatim'));
      return undefined;
    },
    rows(key) {
      return /items?$|lines?$|rows$|entries$|positions$/.test(key.toLowerCase())
        ? lineItems(document, source)
        : undefined;
    },
  };
}
