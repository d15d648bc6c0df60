import type { Problem } from '../../errors.js';
import { isRecord } from '../../is-record.js';
import { locate, parseYamlSource, type YamlSource } from '../yaml-source.js';
import type { RawCase, RawCases } from './raw-case.js';
import { readNumberSources } from './read-yaml-cases.js';

/** `cases.jsonl`: one JSON object per line; blank lines are skipped. */
export function readJsonlCases(file: string, text: string): RawCases {
  const problems: Problem[] = [];
  const cases: RawCase[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  let index = 0;
  for (const [offset, rawLine] of lines.entries()) {
    const lineText = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const line = offset + 1;
    if (!/\S/.test(lineText)) continue;
    const caseIndex = index++;
    let raw: unknown;
    try {
      raw = JSON.parse(lineText);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const position = /position (\d+)/.exec(message);
      problems.push({
        severity: 'error',
        location: { file, line, col: position ? Number(position[1]) + 1 : 1 },
        keyPath: `[${caseIndex}]`,
        message: `not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
        hint: 'each line of a .jsonl file must be one complete JSON object',
      });
      continue;
    }
    // JSON is YAML, so the line parsed as YAML gives columns for keys inside it. That parse
    // costs far more than JSON.parse, so it happens only when a position or a number's
    // source text is asked for, never for every line of a large file.
    let source: YamlSource | undefined;
    const parsed = (): YamlSource => {
      source ??= parseYamlSource(file, lineText);
      return source;
    };
    cases.push({
      index: caseIndex,
      raw,
      line,
      locate: (path) => {
        const at = parsed().usable ? locate(parsed(), path) : { line: 1, col: 1 };
        return { line: line + at.line - 1, col: at.col };
      },
      numberSources:
        hasNumberVar(raw) && hasRewrittenNumber(lineText) && parsed().usable
          ? readNumberSources(parsed().doc, ['vars'])
          : {},
    });
  }
  return { cases, problems };
}

function hasNumberVar(raw: unknown): boolean {
  if (!isRecord(raw) || !isRecord(raw['vars'])) return false;
  return Object.values(raw['vars']).some((value) => typeof value === 'number');
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * True when a number in the line is written differently from how JavaScript prints it
 * (`1.10`, `1e3`): only then does a var's source text differ from String(value).
 */
function hasRewrittenNumber(line: string): boolean {
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = i;
      const literal = NUMBER.exec(line)?.[0] ?? ch;
      if (String(Number(literal)) !== literal) return true;
      i += literal.length - 1;
    }
  }
  return false;
}
