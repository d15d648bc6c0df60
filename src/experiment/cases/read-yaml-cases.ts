import type { Document } from 'yaml';
import { isMap, isPair, isScalar } from 'yaml';
import type { Problem } from '../../errors.js';
import { findNode, locate, parseYamlSource } from '../yaml-source.js';
import type { RawCase, RawCases } from './raw-case.js';

/**
 * Above this many cases a YAML file is worth converting: YAML keeps a position for every
 * node, JSONL and CSV read one line at a time.
 */
export const YAML_CASES_LIMIT = 20_000;

/** `cases.yaml`: a YAML list of case mappings. */
export function readYamlCases(file: string, text: string): RawCases {
  const source = parseYamlSource(file, text);
  if (!source.usable) return { cases: [], problems: source.problems };
  const problems: Problem[] = [...source.problems];
  const data = source.data;
  if (data === null || data === undefined) return { cases: [], problems };
  if (!Array.isArray(data)) {
    const at = locate(source, []);
    problems.push({
      severity: 'error',
      location: { file, ...at },
      keyPath: '',
      message: 'a cases file must be a YAML list of cases',
      hint: 'start each case with "- " (e.g. "- id: first" then "  vars: { topic: … }")',
    });
    return { cases: [], problems };
  }
  const tooMany = manyYamlCasesWarning(file, data.length);
  if (tooMany) problems.push(tooMany);
  const cases: RawCase[] = data.map((raw, index) => ({
    index,
    raw,
    line: locate(source, [index]).line,
    locate: (path) => locate(source, [index, ...path]),
    numberSources: readNumberSources(source.doc, [index, 'vars']),
  }));
  return { cases, problems };
}

/** The suggestion to move to JSONL, for a YAML file above YAML_CASES_LIMIT cases. */
export function manyYamlCasesWarning(file: string, count: number): Problem | undefined {
  if (count <= YAML_CASES_LIMIT) return undefined;
  return {
    severity: 'warning',
    location: { file, line: 1, col: 1 },
    keyPath: '',
    message: `${count.toLocaleString('en')} cases in YAML: a file this large is slow to read on every validate, eval and run`,
    hint: "write one JSON object per line to a .jsonl file (e.g. `yq -o=json -I=0 '.[]' cases.yaml > cases.jsonl`) and point `cases:` at it",
  };
}

/** Source text of the numeric scalars directly under the mapping at `path`. */
export function readNumberSources(doc: Document, path: (string | number)[]): Record<string, string> {
  const found = findNode(doc, path);
  const sources: Record<string, string> = {};
  if (found.depth !== path.length || !isMap(found.node)) return sources;
  for (const pair of found.node.items) {
    if (!isPair(pair) || !isScalar(pair.key) || !isScalar(pair.value)) continue;
    const { value, source } = pair.value as { value: unknown; source?: string };
    if (typeof value === 'number' && typeof source === 'string') sources[String(pair.key.value)] = source;
  }
  return sources;
}
