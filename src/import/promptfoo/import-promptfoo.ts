/**
 * Plans the import of a promptfoo config as an autoresearch experiment: reads the config and
 * every file it points at, and returns the files to write plus what could not be imported and
 * why. Pure planning — it reads, it never writes (write-import.ts does).
 */
import { dirname, join, resolve } from 'node:path';
import { assignSplits } from '../../experiment/cases/split.js';
import type { ModelEntry } from '../../experiment/schema.js';
import { buildCases } from './build-cases.js';
import { renderFallbackRubric } from './fallback-rubric.js';
import {
  addNote,
  addUnmapped,
  createFindings,
  type Findings,
  summariseUnmapped,
  type Unmapped,
} from './findings.js';
import { loadPrompts, type PromptChoice } from './load-prompts.js';
import { loadTests } from './load-tests.js';
import { listProviders, type MappedModel, mapProvider } from './map-provider.js';
import { describeConstruct, findUnsupportedConstructs, placeholdersOf, usesTemplate } from './nunjucks.js';
import { readDefaultTest } from './read-default-test.js';
import { displayPath } from './read-files.js';
import { readEvaluateOptions, readPromptfooConfig, reportTopLevelKeys } from './read-config.js';
import { renderCasesYaml } from './render-cases.js';
import { type ExperimentDraft, IMPORT_HOLDOUT, renderExperimentYaml } from './render-experiment.js';
import { selectPrompt } from './select-prompt.js';

export interface ImportPromptfooOptions {
  configPath: string;
  /** The new experiment's name (already checked by the caller). */
  name: string;
  /** 0-based; default 0. */
  promptIndex?: number;
  projectRoot: string;
}

export interface ImportedFile {
  /** Relative to the project root. */
  path: string;
  text: string;
}

export interface ImportPlan {
  files: ImportedFile[];
  unmapped: Unmapped[];
  notes: string[];
}

/** The generator when no promptfoo provider maps, and the mutator/grader beside a program generator. */
export const DEFAULT_MODEL: ModelEntry = { provider: 'anthropic', model: 'claude-sonnet-4-5' };

function describeChoice(choice: PromptChoice, index: number, count: number): string {
  return `prompt ${index} of ${count}: ${choice.label}`;
}

/** The prompt text and the generator's system prompt: a system message that uses vars must stay in the prompt. */
function splitPrompt(choice: PromptChoice, findings: Findings): { text: string; system?: string } {
  const text = (choice.text ?? '').trim();
  if (choice.system === undefined) return { text };
  if (usesTemplate(choice.system)) {
    addNote(
      findings,
      "the chat prompt's system message uses {{vars}}, so it was placed at the top of prompt.md (the loop may now change it too)",
    );
    return { text: `${choice.system.trim()}\n\n${text}` };
  }
  addNote(
    findings,
    "the chat prompt's system message became models.generator.system: it stays fixed while the loop changes prompt.md",
  );
  return { text, system: choice.system.trim() };
}

function mapModels(
  config: Record<string, unknown>,
  ctx: { configDir: string; projectRoot: string },
  findings: Findings,
) {
  const key = config['providers'] !== undefined ? 'providers' : 'targets';
  const { specs, unmapped } = listProviders(config[key], key);
  findings.unmapped.push(...unmapped);
  const mapped: MappedModel[] = [];
  for (const spec of specs) {
    const result = mapProvider(spec, ctx);
    findings.unmapped.push(...result.unmapped);
    for (const note of result.notes) addNote(findings, note);
    if (result.model) mapped.push(result.model);
  }
  if (specs.length === 0)
    addNote(findings, 'the config names no providers, so the generator is the default Anthropic entry');
  return { generator: mapped[0], alternatives: mapped.slice(1) };
}

export async function importPromptfoo(options: ImportPromptfooOptions): Promise<ImportPlan> {
  const configPath = resolve(options.configPath);
  const configDir = dirname(configPath);
  const displayRoot = options.projectRoot;
  const experimentDir = join(options.projectRoot, 'experiments', options.name);
  const findings = createFindings();
  const config = await readPromptfooConfig(configPath, displayRoot);
  reportTopLevelKeys(config, findings);

  const choices = await loadPrompts(config['prompts'], configDir, displayRoot);
  const { choice, index } = selectPrompt(choices, options.promptIndex);
  for (const part of choice.dropped) addUnmapped(findings, part.subject, choice.source, part.why);
  if (choices.length > 1) {
    const others = choices
      .map((c, i) => `${i} "${c.label}"${c.problem ? ' (cannot be imported)' : ''}`)
      .filter((_, i) => i !== index);
    addNote(
      findings,
      `the config has ${choices.length} prompts and this is prompt ${index}; import another with --prompt-index N (${others.join(', ')})`,
    );
  }
  const prompt = splitPrompt(choice, findings);
  for (const construct of findUnsupportedConstructs(prompt.text)) {
    addUnmapped(findings, `\`${construct.text}\` in the prompt`, '', describeConstruct(construct));
  }

  const models = mapModels(config, { configDir, projectRoot: options.projectRoot }, findings);
  const generator =
    models.generator && prompt.system !== undefined
      ? { ...models.generator, entry: { ...models.generator.entry, system: prompt.system } }
      : models.generator;
  const defaultGenerator: ModelEntry = {
    ...DEFAULT_MODEL,
    ...(prompt.system === undefined ? {} : { system: prompt.system }),
  };

  const ctx = { configDir, experimentDir, projectRoot: options.projectRoot, displayRoot };
  const defaults = await readDefaultTest(config['defaultTest'], ctx, findings);
  const tests = await loadTests(config['tests'], configDir, displayRoot, findings);
  const cases = await buildCases(
    tests,
    {
      ...ctx,
      placeholders: placeholdersOf(prompt.text),
      defaultVars: defaults.vars,
      perCaseAssertions: defaults.perCase,
    },
    findings,
  );
  for (const c of cases) c.expectations = [...new Set([...c.expectations, ...defaults.expectations])];
  const { samples, concurrency } = readEvaluateOptions(config['evaluateOptions'], findings);

  const hasExpectations = cases.some((c) => c.expectations.length > 0);
  const hasChecks = defaults.checks.length > 0 || cases.some((c) => c.checks.length > 0);
  if (hasExpectations) {
    addNote(
      findings,
      'no rubric was generated: model-graded assertions became case expectations, which the grader passes only with a quote from the output; add `rubric:` if you also want a judge to score every output',
    );
  } else if (hasChecks) {
    addNote(
      findings,
      'no rubric was generated; add `rubric:` (see rubrics/) if you want an isolated judge to score every output',
    );
  }
  // With no check and no expectation there is nothing to score, so a general rubric stands in.
  const fallbackRubric = !hasExpectations && !hasChecks;
  if (fallbackRubric) {
    addNote(
      findings,
      `nothing else could be scored, so rubrics/${options.name}.md holds a general rubric (task fulfilment, accuracy, clarity): rewrite its criteria for this task`,
    );
  }
  const extraRoles: ExperimentDraft['extraRoles'] = [];
  if (generator?.entry.provider === 'command') {
    extraRoles.push({
      role: 'mutator',
      entry: DEFAULT_MODEL,
      why: 'The generator is a program, not a language model, so the mutator needs its own model.',
    });
    if (hasExpectations)
      extraRoles.push({
        role: 'grader',
        entry: { ...DEFAULT_MODEL, temperature: 0 },
        why: 'The grader needs a language model too.',
      });
  }

  const source = displayPath(configPath, options.projectRoot);
  const unmapped = summariseUnmapped(findings.unmapped);
  const description =
    typeof config['description'] === 'string' && config['description'].trim() !== ''
      ? config['description'].trim()
      : `Imported from promptfoo (${source})`;
  const experimentYaml = renderExperimentYaml({
    name: options.name,
    description,
    source,
    promptChoice: describeChoice(choice, index, choices.length),
    generator,
    defaultGenerator,
    alternatives: models.alternatives,
    extraRoles,
    checks: defaults.checks,
    rubric: fallbackRubric,
    ...(samples === undefined ? {} : { samples }),
    ...(concurrency === undefined ? {} : { concurrency }),
    // Without split labels only the count matters, and it does not depend on the seed.
    trainCases: assignSplits(cases, { holdout: IMPORT_HOLDOUT, test: 0 }, 1).splits.filter(
      (s) => s === 'train',
    ).length,
    unmapped,
    notes: findings.notes,
  });
  const base = `experiments/${options.name}`;
  const files: ImportedFile[] = [
    { path: `${base}/experiment.yaml`, text: experimentYaml },
    { path: `${base}/prompt.md`, text: `${prompt.text}\n` },
    { path: `${base}/cases.yaml`, text: renderCasesYaml(cases, source) },
  ];
  if (fallbackRubric)
    files.push({ path: `rubrics/${options.name}.md`, text: renderFallbackRubric(options.name, description) });
  return {
    files,
    unmapped,
    notes: [...findings.notes],
  };
}
