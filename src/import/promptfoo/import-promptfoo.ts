/**
 * Plans the import of a promptfoo config as an autoresearch experiment: reads the config and
 * every file it points at, and returns the files to write plus what could not be imported and
 * why. Pure planning — it reads, it never writes (write-import.ts does).
 */
import { dirname, join, resolve } from 'node:path';
import { assignSplits } from '../../experiment/cases/split.js';
import type { ModelEntry, PromptParts } from '../../experiment/schema.js';
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
import { describeConstruct, findUnsupportedConstructs, placeholdersOf } from './nunjucks.js';
import { readProviderShape } from './provider-shape.js';
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

/** What the chosen prompt becomes: prompt.md, or prompt parts and the files holding them. */
interface PromptPlan {
  /** The text of every part, for placeholders and unsupported constructs. */
  texts: string[];
  /** prompt.md's text, for a plain prompt. */
  path?: string;
  parts?: PromptParts;
  /** Files beside experiment.yaml that hold parts, by name. */
  files: Record<string, string>;
}

/**
 * A plain prompt (or a chat prompt of one user message) is prompt.md; a chat prompt becomes
 * parts whose optimised one is the system message, else the last user message, each in a file.
 */
function planPrompt(choice: PromptChoice, findings: Findings): PromptPlan {
  const chat = choice.chat;
  if (chat === undefined || (chat.system === undefined && chat.messages.length === 1)) {
    const text = (choice.text ?? '').trim();
    return { texts: [text], path: text, files: {} };
  }
  const messages: NonNullable<PromptParts['messages']> = chat.messages.map((m) => ({ ...m }));
  const texts = [...(chat.system === undefined ? [] : [chat.system]), ...chat.messages.map((m) => m.content)];
  if (chat.system !== undefined) {
    addNote(
      findings,
      'the chat prompt became prompt parts: its system message is system.md, the part the loop changes; its other messages are fixed in experiment.yaml (to optimise one too, move its text to a file and name it under `optimise`)',
    );
    return {
      texts,
      parts: { system: { file: 'system.md' }, messages, optimise: ['system'] },
      files: { 'system.md': chat.system.trim() },
    };
  }
  const last = chat.messages.length - 1;
  const user = messages[last] as NonNullable<PromptParts['messages']>[number];
  const text = typeof user.content === 'string' ? user.content.trim() : '';
  user.content = { file: 'user.md' };
  addNote(
    findings,
    `the chat prompt became prompt parts: its last user message is user.md (messages[${last}]), the part the loop changes; the earlier turns are fixed in experiment.yaml`,
  );
  return { texts, parts: { messages, optimise: [`messages[${last}]`] }, files: { 'user.md': text } };
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
  const [generator, ...alternatives] = mapped;
  for (const alt of alternatives)
    if (Object.keys(alt.shape).length > 0)
      addNote(
        findings,
        `${alt.origin} (${alt.where}) sets ${Object.keys(alt.shape).join(' and ')}: only the generator's (the first provider's) became \`output:\`/\`tools:\``,
      );
  return { generator, alternatives };
}

const SCHEMA_FILE = 'schema.json';
const TOOLS_FILE = 'tools.json';

function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
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
  const prompt = planPrompt(choice, findings);
  for (const construct of prompt.texts.flatMap(findUnsupportedConstructs)) {
    addUnmapped(findings, `\`${construct.text}\` in the prompt`, '', describeConstruct(construct));
  }

  const models = mapModels(config, { configDir, projectRoot: options.projectRoot }, findings);
  const generator = models.generator;
  const shape = generator
    ? await readProviderShape(generator.shape, generator.where, { configDir, displayRoot }, findings)
    : {};

  const ctx = { configDir, experimentDir, projectRoot: options.projectRoot, displayRoot };
  const defaults = await readDefaultTest(config['defaultTest'], ctx, findings);
  const tests = await loadTests(config['tests'], configDir, displayRoot, findings);
  const cases = await buildCases(
    tests,
    {
      ...ctx,
      placeholders: [...new Set(prompt.texts.flatMap(placeholdersOf))],
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
    defaultGenerator: DEFAULT_MODEL,
    ...(prompt.parts === undefined ? {} : { parts: prompt.parts }),
    ...(shape.schema === undefined ? {} : { output: SCHEMA_FILE }),
    ...(shape.tools === undefined ? {} : { tools: TOOLS_FILE }),
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
    ...(prompt.path === undefined ? [] : [{ path: `${base}/prompt.md`, text: `${prompt.path}\n` }]),
    ...Object.entries(prompt.files).map(([name, text]) => ({ path: `${base}/${name}`, text: `${text}\n` })),
    { path: `${base}/cases.yaml`, text: renderCasesYaml(cases, source) },
  ];
  if (shape.schema) files.push({ path: `${base}/${SCHEMA_FILE}`, text: jsonFile(shape.schema) });
  if (shape.tools) files.push({ path: `${base}/${TOOLS_FILE}`, text: jsonFile(shape.tools) });
  if (fallbackRubric)
    files.push({ path: `rubrics/${options.name}.md`, text: renderFallbackRubric(options.name, description) });
  return {
    files,
    unmapped,
    notes: [...findings.notes],
  };
}
