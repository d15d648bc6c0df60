import type { Problem } from '../../errors.js';
import { locate, parseYamlSource } from '../yaml-source.js';
import type { RawCase, RawCases } from './raw-case.js';
import { readNumberSources } from './read-yaml-cases.js';

/** `cases.jsonl`: one JSON object per line; blank lines are skipped. */
export function readJsonlCases(file: string, text: string): RawCases {
  const problems: Problem[] = [];
  const cases: RawCase[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (const [offset, rawLine] of lines.entries()) {
    const lineText = rawLine.replace(/\r$/, '');
    const line = offset + 1;
    if (lineText.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(lineText);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const position = /position (\d+)/.exec(message);
      problems.push({
        severity: 'error',
        location: { file, line, col: position ? Number(position[1]) + 1 : 1 },
        keyPath: `[${cases.length}]`,
        message: `not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
        hint: 'each line of a .jsonl file must be one complete JSON object',
      });
      continue;
    }
    // JSON is YAML, so the line parsed as YAML gives columns for keys inside it.
    const source = parseYamlSource(file, lineText);
    const index = cases.length;
    cases.push({
      index,
      raw,
      line,
      locate: (path) => {
        const at = source.usable ? locate(source, path) : { line: 1, col: 1 };
        return { line: line + at.line - 1, col: at.col };
      },
      numberSources: source.usable ? readNumberSources(source.doc, ['vars']) : {},
    });
  }
  return { cases, problems };
}
