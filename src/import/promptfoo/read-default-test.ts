/**
 * promptfoo's `defaultTest` (inline or a `file://` path): its vars sit under every test's
 * vars, its assertions apply to every case — as global checks when they do not depend on a
 * case, rendered per case when their values use vars. Other settings are reported.
 */
import type { CheckEntry } from '../../experiment/schema.js';
import { addNote, addUnmapped, type Findings } from './findings.js';
import { isFileRef, parseFileRef } from './file-ref.js';
import { assertionUsesVars, mapAssertions, type PlacedAssertion, placeAssertions } from './map-assertion.js';
import { parseDataText, readTextFile } from './read-files.js';
import { readVarsField } from './resolve-vars.js';

export interface DefaultTest {
  vars: Record<string, unknown>;
  /** Checks for experiment.yaml, applied to every case. */
  checks: CheckEntry[];
  /** Expectations every case gets (autoresearch keeps expectations on cases only). */
  expectations: string[];
  /** Assertions rendered with each case's vars. */
  perCase: PlacedAssertion[];
}

interface Context {
  configDir: string;
  experimentDir: string;
  projectRoot: string;
  displayRoot: string;
}

const WHERE = 'defaultTest';

async function readRaw(raw: unknown, ctx: Context, findings: Findings): Promise<Record<string, unknown>> {
  if (raw === undefined || raw === null) return {};
  if (isFileRef(raw)) {
    const ref = parseFileRef(raw, ctx.configDir);
    raw = parseDataText(
      await readTextFile(ref.absolute, 'the defaultTest file', ctx.displayRoot),
      ref.ext,
      ref.path,
    );
  }
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Record<string, unknown>;
  addUnmapped(findings, '`defaultTest`', WHERE, 'it is neither a mapping nor a file:// path to one');
  return {};
}

export async function readDefaultTest(raw: unknown, ctx: Context, findings: Findings): Promise<DefaultTest> {
  const test = await readRaw(raw, ctx, findings);
  for (const [key, value] of Object.entries(test)) {
    if (key === 'vars' || key === 'assert' || value === undefined) continue;
    const subject =
      key === 'options' && typeof value === 'object' && value !== null
        ? `\`defaultTest.options\` (${Object.keys(value).join(', ')})`
        : `\`defaultTest.${key}\``;
    addUnmapped(findings, subject, '', 'no equivalent setting in autoresearch');
  }
  const vars = await readVarsField(test['vars'], WHERE, ctx, findings);
  const placed = placeAssertions(test['assert'], `${WHERE}.assert`);
  const perCase = placed.filter((a) => assertionUsesVars(a.raw));
  const shared = await mapAssertions(
    placed.filter((a) => !assertionUsesVars(a.raw)),
    ctx,
    findings,
  );
  if (perCase.length > 0) {
    addNote(
      findings,
      "defaultTest assertions whose values use {{vars}} were rendered into each case's own checks",
    );
  }
  if (shared.expectations.length > 0) {
    addNote(
      findings,
      "defaultTest model-graded assertions were added to every case's expectations (expectations live on cases)",
    );
  }
  return { vars, checks: shared.checks, expectations: shared.expectations, perCase };
}
