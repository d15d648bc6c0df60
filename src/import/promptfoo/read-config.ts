/**
 * The promptfoo config file itself (YAML or JSON) and the settings at its top level that the
 * importer reads; every other top-level key is reported with the reason it stays behind.
 */
import { extname } from 'node:path';
import { AutoresearchError } from '../../errors.js';
import { addUnmapped, type Findings } from './findings.js';
import { parseDataText, readTextFile } from './read-files.js';

/** Keys the importer maps; everything else at the top level is listed as not imported. */
export const MAPPED_KEYS = new Set([
  'description',
  'prompts',
  'providers',
  'targets',
  'tests',
  'defaultTest',
  'evaluateOptions',
]);

const TOP_LEVEL_WHY: Record<string, string> = {
  scenarios:
    'scenarios combine data sets with tests at run time; put the combined tests in a tests file and import that',
  env: 'environment overrides are not copied: autoresearch reads keys and endpoints from your environment',
  nunjucksFilters: 'custom Nunjucks filters are not run; prompts keep only plain {{var}} placeholders',
  extensions: 'promptfoo hooks are not run',
  derivedMetrics:
    'derived metrics have no equivalent; the score combines checks, judge and expectations under scoring.weights',
  redteam: 'red-team generation has no equivalent',
};
const PROMPTFOO_ONLY = 'a promptfoo setting about its own output or runs, with no effect on the experiment';

export async function readPromptfooConfig(
  path: string,
  displayRoot: string,
): Promise<Record<string, unknown>> {
  const text = await readTextFile(path, 'the promptfoo config', displayRoot);
  const ext = extname(path).toLowerCase();
  const data = parseDataText(text, ext === '.json' ? '.json' : '.yaml', path);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new AutoresearchError(
      'E_CONFIG',
      `${path} is not a promptfoo config: expected a mapping with prompts, providers and tests`,
      {
        hint: 'pass the promptfooconfig.yaml you run `promptfoo eval` with',
      },
    );
  }
  return data as Record<string, unknown>;
}

export function reportTopLevelKeys(config: Record<string, unknown>, findings: Findings): void {
  for (const key of Object.keys(config)) {
    if (MAPPED_KEYS.has(key)) continue;
    addUnmapped(findings, `\`${key}\``, '', TOP_LEVEL_WHY[key] ?? PROMPTFOO_ONLY);
  }
}

/** `evaluateOptions.repeat` → generations per case; `maxConcurrency` → parallel calls. */
export function readEvaluateOptions(
  raw: unknown,
  findings: Findings,
): { samples?: number; concurrency?: number } {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    addUnmapped(findings, '`evaluateOptions`', '', 'not a mapping');
    return {};
  }
  const result: { samples?: number; concurrency?: number } = {};
  const positiveInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'repeat' && positiveInt(value)) result.samples = value;
    else if (key === 'maxConcurrency' && positiveInt(value)) result.concurrency = value;
    else
      addUnmapped(
        findings,
        `\`evaluateOptions.${key}\``,
        '',
        key === 'repeat' || key === 'maxConcurrency' ? 'not a whole number >= 1' : PROMPTFOO_ONLY,
      );
  }
  return result;
}
