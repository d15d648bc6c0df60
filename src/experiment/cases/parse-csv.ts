/**
 * RFC 4180 CSV with positions: comma-separated, CRLF or LF line ends, fields in double
 * quotes may hold commas, line breaks and `""` for a quote. Each field remembers where it
 * starts, so a problem in a cell names its line and column. Empty lines are skipped.
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

export function parseCsv(input: string): CsvResult {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let line = 1;
  let col = 1;
  let i = 0;
  let record: CsvRecord | undefined;

  const advance = (count: number): void => {
    for (let k = 0; k < count; k++) {
      if (text[i] === '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
      i++;
    }
  };
  const atRecordEnd = (): boolean => i >= text.length || text[i] === '\n' || text.startsWith('\r\n', i);
  const endRecord = (): void => {
    if (text.startsWith('\r\n', i)) advance(2);
    else if (text[i] === '\n') advance(1);
    if (record) records.push(record);
    record = undefined;
  };

  while (i < text.length) {
    if (record === undefined && (text[i] === '\n' || text.startsWith('\r\n', i))) {
      endRecord();
      continue;
    }
    record ??= { line, fields: [] };
    const start = { line, col };
    let value = '';
    if (text[i] === '"') {
      advance(1);
      for (;;) {
        if (i >= text.length) {
          return {
            records,
            error: { ...start, message: 'unterminated quoted field: the opening `"` has no closing quote' },
          };
        }
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            advance(2);
            continue;
          }
          advance(1);
          break;
        }
        value += text[i];
        advance(1);
      }
      if (!atRecordEnd() && text[i] !== ',') {
        return {
          records,
          error: {
            line,
            col,
            message: 'unexpected character after a closing quote (expected `,` or a line end)',
          },
        };
      }
    } else {
      while (!atRecordEnd() && text[i] !== ',') {
        value += text[i];
        advance(1);
      }
    }
    record.fields.push({ value, ...start });
    if (text[i] === ',') {
      advance(1);
      // A comma at the very end of the text still opens one more, empty field.
      if (i >= text.length) record.fields.push({ value: '', line, col });
    } else {
      endRecord();
    }
  }
  if (record) records.push(record);
  return { records };
}
