import type { Problem } from '../../errors.js';
import { parseCsv } from './parse-csv.js';
import type { RawCases } from './raw-case.js';

const RESERVED = new Set(['id', 'split', 'should_trigger']);
/** Lists cannot live in a cell; a column with one of these names is almost surely a mistake. */
const YAML_ONLY = new Set(['checks', 'expectations', 'messages']);

/**
 * `cases.csv`: a header row; columns `id`, `split` and `should_trigger` (`true` or `false`) are
 * reserved, every other column is a var.
 */
export function readCsvCases(file: string, text: string): RawCases {
  const problems: Problem[] = [];
  const parsed = parseCsv(text);
  if (parsed.error) {
    const { line, col, message } = parsed.error;
    problems.push({
      severity: 'error',
      location: { file, line, col },
      keyPath: '',
      message,
      hint: 'wrap a field in double quotes to hold commas or line breaks, and write a quote inside it as ""',
    });
    return { cases: [], problems };
  }
  const [header, ...rows] = parsed.records;
  if (header === undefined) return { cases: [], problems };
  const columns = header.fields.map((f) => f.value.trim());
  for (const [i, field] of header.fields.entries()) {
    const name = columns[i] as string;
    const where = { file, line: field.line, col: field.col };
    if (name === '') {
      problems.push({
        severity: 'error',
        location: where,
        keyPath: '',
        message: `column ${i + 1} has no name`,
        hint: 'every column needs a header',
      });
    } else if (columns.indexOf(name) !== i) {
      problems.push({
        severity: 'error',
        location: where,
        keyPath: '',
        message: `duplicate column \`${name}\``,
      });
    } else if (YAML_ONLY.has(name)) {
      problems.push({
        severity: 'error',
        location: where,
        keyPath: '',
        message: `a CSV cases file cannot hold \`${name}\``,
        hint: 'per-case checks, expectations and messages need a .yaml or .jsonl cases file',
      });
    }
  }
  if (problems.length > 0) return { cases: [], problems };

  // Where each name a case refers to (`id`, `split`, `vars.<column>`) sits in a row: one map
  // for the file rather than one per row.
  const columnOf = new Map<string, number>(
    columns.map((name, i) => [RESERVED.has(name) ? name : `vars.${name}`, i]),
  );
  const cases: RawCases['cases'] = [];
  for (const [index, row] of rows.entries()) {
    if (row.fields.length !== columns.length) {
      problems.push({
        severity: 'error',
        location: { file, line: row.line, col: 1 },
        keyPath: `[${index}]`,
        message: `row has ${row.fields.length} field(s), the header has ${columns.length}`,
        hint: 'quote fields that contain commas',
      });
      continue;
    }
    const raw: Record<string, unknown> & { vars: Record<string, string> } = { vars: {} };
    for (const [i, field] of row.fields.entries()) {
      const name = columns[i] as string;
      if (RESERVED.has(name)) {
        // An empty cell means "not given": generated id, split by the share, no trigger check.
        const cell = field.value.trim();
        if (cell !== '') raw[name] = name === 'should_trigger' ? booleanCell(cell) : cell;
      } else {
        raw.vars[name] = field.value;
      }
    }
    cases.push({
      index,
      raw,
      line: row.line,
      locate: (path) => {
        const field = row.fields[columnOf.get(path.join('.')) ?? -1];
        return field ? { line: field.line, col: field.col } : { line: row.line, col: 1 };
      },
      numberSources: {},
    });
  }
  return { cases, problems };
}

/** `true` / `false` in any case as the boolean; anything else as written, for the schema to refuse. */
function booleanCell(cell: string): boolean | string {
  const lower = cell.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : cell;
}
