/**
 * RFC 4180 CSV with positions: comma-separated, CRLF or LF line ends, fields in double
 * quotes may hold commas, line breaks and `""` for a quote. Each field remembers where it
 * starts, so a problem in a cell names its line and column. Empty lines are skipped.
 * Fields are sliced from the text, never built a character at a time: a cases file can
 * hold hundreds of thousands of rows.
 */

export interface CsvField {
  value: string;
  line: number;
  col: number;
}

export interface CsvRecord {
  /** The line the record starts on (1-based). */
  line: number;
  fields: CsvField[];
}

export interface CsvResult {
  records: CsvRecord[];
  error?: { line: number; col: number; message: string };
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

export function parseCsv(input: string): CsvResult {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let line = 1;
  // Index of the first character of the current line: columns count from it.
  let lineStart = 0;
  let i = 0;
  let record: CsvRecord | undefined;

  const col = (at: number): number => at - lineStart + 1;
  const isLineEnd = (at: number): boolean =>
    text.charCodeAt(at) === LF || (text.charCodeAt(at) === CR && text.charCodeAt(at + 1) === LF);
  const atRecordEnd = (): boolean => i >= text.length || isLineEnd(i);
  const endRecord = (): void => {
    if (i < text.length) {
      i += text.charCodeAt(i) === CR ? 2 : 1;
      line++;
      lineStart = i;
    }
    if (record) records.push(record);
    record = undefined;
  };

  while (i < text.length) {
    if (record === undefined && isLineEnd(i)) {
      endRecord();
      continue;
    }
    record ??= { line, fields: [] };
    const start = { line, col: col(i) };
    let value: string;
    if (text.charCodeAt(i) === QUOTE) {
      let from = i + 1;
      value = '';
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) {
          return {
            records,
            error: { ...start, message: 'unterminated quoted field: the opening `"` has no closing quote' },
          };
        }
        for (let lf = text.indexOf('\n', from); lf !== -1 && lf < quote; lf = text.indexOf('\n', lf + 1)) {
          line++;
          lineStart = lf + 1;
        }
        value += text.slice(from, quote);
        if (text.charCodeAt(quote + 1) === QUOTE) {
          value += '"';
          from = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
      if (!atRecordEnd() && text.charCodeAt(i) !== COMMA) {
        return {
          records,
          error: {
            line,
            col: col(i),
            message: 'unexpected character after a closing quote (expected `,` or a line end)',
          },
        };
      }
    } else {
      const from = i;
      for (; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code === COMMA || code === LF || (code === CR && text.charCodeAt(i + 1) === LF)) break;
      }
      value = text.slice(from, i);
    }
    record.fields.push({ value, line: start.line, col: start.col });
    if (text.charCodeAt(i) === COMMA) {
      i++;
      // A comma at the very end of the text still opens one more, empty field.
      if (i >= text.length) record.fields.push({ value: '', line, col: col(i) });
    } else {
      endRecord();
    }
  }
  if (record) records.push(record);
  return { records };
}
