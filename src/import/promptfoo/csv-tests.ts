/**
 * promptfoo's CSV tests: every plain column is a var; `__expected…` columns hold compact
 * assertions, `__description` names the test, `__metric` names its assertions and
 * `__threshold`, `__prefix`, `__suffix`, `__metadata:*`… carry the remaining settings. Rows
 * come out shaped like YAML tests, so one mapping handles both.
 */
import { AutoresearchError } from '../../errors.js';
import { parseCsv } from '../../experiment/cases/parse-csv.js';
import { assertionFromString } from './assertion-from-string.js';
import type { RawTest } from './load-tests.js';

export function testsFromCsv(text: string, label: string): RawTest[] {
  const { records, error } = parseCsv(text);
  if (error) {
    throw new AutoresearchError(
      'E_CONFIG',
      `${label}:${error.line}:${error.col} is not valid CSV: ${error.message}`,
      {
        hint: 'fix the file so promptfoo itself can read it, then import again',
      },
    );
  }
  const [header, ...rows] = records;
  if (!header) return [];
  const columns = header.fields.map((f) => f.value.trim());
  return rows.map((row) => {
    const vars: Record<string, string> = {};
    const assert: Record<string, unknown>[] = [];
    const test: Record<string, unknown> = {};
    const metadata: Record<string, string> = {};
    const extras: Record<string, string> = {};
    let metric: string | undefined;
    columns.forEach((column, i) => {
      const value = row.fields[i]?.value ?? '';
      if (column.startsWith('__expected')) {
        if (value.trim() !== '') assert.push({ ...assertionFromString(value) });
      } else if (column === '__description') {
        if (value.trim() !== '') test['description'] = value;
      } else if (column === '__metric') {
        if (value.trim() !== '') metric = value.trim();
      } else if (column === '__threshold') {
        if (value.trim() !== '') test['threshold'] = Number.parseFloat(value);
      } else if (column === '__prefix' || column === '__suffix') {
        if (value !== '')
          test['options'] = { ...(test['options'] as object | undefined), [column.slice(2)]: value };
      } else if (column.startsWith('__metadata:')) {
        if (value !== '') metadata[column.slice('__metadata:'.length)] = value;
      } else if (column.startsWith('__')) {
        if (value !== '') extras[column] = value;
      } else vars[column] = value;
    });
    if (metric !== undefined) for (const a of assert) a['metric'] = metric;
    if (Object.keys(metadata).length > 0) test['metadata'] = metadata;
    Object.assign(test, extras);
    return { where: `${label}:${row.line}`, data: { ...test, vars, assert } };
  });
}
