/**
 * promptfoo tests → autoresearch cases: `defaultTest` vars merged under each test's vars,
 * assertions mapped to the case's checks and expectations, ids from descriptions, and every
 * placeholder given a value (promptfoo renders a missing var as empty text; autoresearch
 * refuses a case without one, so the empty value is written out and noted).
 */
import type { CheckEntry } from '../../experiment/schema.js';
import { addNote, addUnmapped, type Findings } from './findings.js';
import type { RawTest } from './load-tests.js';
import { mapAssertions, type PlacedAssertion, placeAssertions } from './map-assertion.js';
import { type CaseVar, expandVars, readVarsField } from './resolve-vars.js';
import { isRecord } from '../../is-record.js';

export interface PlannedCase {
  id: string;
  description?: string;
  vars: Record<string, CaseVar>;
  checks: CheckEntry[];
  expectations: string[];
}

export interface CaseContext {
  configDir: string;
  experimentDir: string;
  projectRoot: string;
  displayRoot: string;
  placeholders: readonly string[];
  defaultVars: Record<string, unknown>;
  /** defaultTest assertions whose values use vars, so each case renders its own. */
  perCaseAssertions: readonly PlacedAssertion[];
}

const TEST_KEY_WHY: Record<string, string> = {
  threshold: 'a case has no pass mark of its own: every case adds to one score',
  metadata: 'autoresearch cases carry no metadata; it stays in promptfoo only',
  provider: 'it runs the test on another provider; every case uses the one generator here',
  providers: 'it limits the test to some providers; every case uses the one generator here',
  prompts: 'it limits the test to some prompts; only one prompt is imported',
  providerOutput: 'it replaces the model call with a fixed output; autoresearch always generates',
  assertScoringFunction: 'custom scoring functions have no equivalent; scoring is set under scoring.weights',
};
const OPTION_WHY: Record<string, string> = {
  prefix: 'it changes the prompt for one test, and the prompt is shared by every case',
  suffix: 'it changes the prompt for one test, and the prompt is shared by every case',
  transform: 'it transforms the output before the assertions; autoresearch checks the output as generated',
  postprocess: 'it transforms the output before the assertions; autoresearch checks the output as generated',
  provider: 'the grader is configured once, under models.grader',
  rubricPrompt: 'the grader is configured once, under models.grader',
};

function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
}

/** Settings on a test that have no equivalent on a case, reported by name. */
function reportTestKeys(test: Record<string, unknown>, where: string, findings: Findings): void {
  for (const [key, value] of Object.entries(test)) {
    if (key === 'description' || key === 'vars' || key === 'assert' || value === undefined) continue;
    if (key === 'options' && isRecord(value)) {
      for (const option of Object.keys(value)) {
        addUnmapped(
          findings,
          `\`options.${option}\` on a test`,
          where,
          OPTION_WHY[option] ?? 'no equivalent setting on a case',
        );
      }
      continue;
    }
    addUnmapped(
      findings,
      `\`${key}\` on a test`,
      where,
      TEST_KEY_WHY[key] ?? 'no equivalent setting on a case',
    );
  }
}

async function casesOfTest(
  raw: RawTest,
  ctx: CaseContext,
  findings: Findings,
): Promise<Omit<PlannedCase, 'id'>[]> {
  if (!isRecord(raw.data)) {
    addUnmapped(
      findings,
      'an entry that is not a test',
      raw.where,
      'a test is a mapping with vars and assert',
    );
    return [];
  }
  const test = raw.data;
  reportTestKeys(test, raw.where, findings);
  const own = await readVarsField(test['vars'], raw.where, ctx, findings);
  const combos = await expandVars({ ...ctx.defaultVars, ...own }, raw.where, ctx, findings);
  const description =
    typeof test['description'] === 'string' && test['description'].trim() !== ''
      ? test['description'].trim()
      : undefined;
  // CSV rows are named by file and line ("tests.csv:7"), so their assertions read "tests.csv:7 assert[1]".
  const assertWhere = /:\d+$/.test(raw.where) ? `${raw.where} assert` : `${raw.where}.assert`;
  const assertions = [...placeAssertions(test['assert'], assertWhere), ...ctx.perCaseAssertions];
  const cases: Omit<PlannedCase, 'id'>[] = [];
  for (const vars of combos) {
    const text = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)]));
    const mapped = await mapAssertions(assertions, { ...ctx, vars: text }, findings);
    cases.push({
      ...(description ? { description } : {}),
      vars,
      checks: mapped.checks,
      expectations: mapped.expectations,
    });
  }
  return cases;
}

function fillPlaceholders(
  cases: Omit<PlannedCase, 'id'>[],
  placeholders: readonly string[],
  findings: Findings,
): void {
  for (const name of placeholders) {
    const missing = cases.filter((c) => !Object.hasOwn(c.vars, name));
    if (missing.length === 0) continue;
    for (const c of missing) c.vars[name] = '';
    addNote(
      findings,
      `{{${name}}} had no value in ${missing.length} of ${cases.length} case${cases.length === 1 ? '' : 's'}; promptfoo renders it as empty text, so those cases now say ${name}: ""`,
    );
  }
}

/** Ids from descriptions (slugged, made unique), else test-1, test-2, …. */
function assignIds(cases: Omit<PlannedCase, 'id'>[]): PlannedCase[] {
  const taken = new Set<string>();
  return cases.map((c, i) => {
    const stem = (c.description ? slug(c.description) : '') || `test-${i + 1}`;
    let id = stem;
    for (let n = 2; taken.has(id); n++) id = `${stem}-${n}`;
    taken.add(id);
    return { id, ...c };
  });
}

export async function buildCases(
  tests: readonly RawTest[],
  ctx: CaseContext,
  findings: Findings,
): Promise<PlannedCase[]> {
  const drafts: Omit<PlannedCase, 'id'>[] = [];
  for (const test of tests) drafts.push(...(await casesOfTest(test, ctx, findings)));
  if (drafts.length === 0) {
    addNote(
      findings,
      'the config has no tests that could be imported, so cases.yaml holds one case built from defaultTest vars; add real cases before running',
    );
    drafts.push(...(await casesOfTest({ where: 'defaultTest', data: {} }, ctx, findings)));
  }
  fillPlaceholders(drafts, ctx.placeholders, findings);
  return assignIds(drafts);
}
