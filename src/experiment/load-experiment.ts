/**
 * Loads an experiment and reports **every** problem at once (docs/design/experiment-format.md):
 * YAML syntax and duplicate keys, the strict schema, files, cases, the rubric, the prompt's parts
 * against the cases (docs/design/prompt-shapes.md: placeholders, conversations, the output schema
 * and tools files), checks, models, scoring and the acceptance rule. Parts that are fine are
 * validated even when others are not. Returns the experiment and its warnings, or throws a
 * ValidationError holding all of them (errors and warnings). Reads files; writes nothing.
 */
import { dirname, extname, resolve } from 'node:path';
import { ValidationError, type Problem } from '../errors.js';
import { validateAcceptance } from './validate-acceptance.js';
import { validateCheckEntries } from './validate-check-entries.js';
import { type PromptTemplate, validatePrompt } from './validate-prompt.js';
import { validateAgent } from './validate-agent.js';
import { validateTriggers } from './validate-triggers.js';
import { resolveAgentTarget } from '../agent/agent-target.js';
import { validateScoring } from './validate-scoring.js';
import { type DraftCase, isCaseFormat, loadCases } from './cases/load-cases.js';
import type { KeyPath } from './key-path.js';
import {
  readCheckEntries,
  readConfiguredModels,
  readPartialConfig,
  readSearch,
  readWeights,
} from './partial-config.js';
import { invalidUtf8Problem, readSourceFile } from './read-source.js';
import { readPromptParts } from './prompt-parts.js';
import { joinPartTexts } from './part-texts.js';
import { readOutputSchema } from './read-output-schema.js';
import { readReferencedFile, type Where } from './referenced-file.js';
import { readTools } from './read-tools.js';
import { validateConversations } from './validate-conversation.js';
import type { PartialConfig } from './partial-config.js';
import { resolveExperimentFile } from './resolve-ref.js';
import { validateModelEntries, findModelWarnings, resolveModels } from './resolve-models.js';
import { parseRubric } from './rubric.js';
import { apiProviderList, providerRecord } from '../providers/registry.js';
import { ExperimentFile, type ModelEntry } from './schema.js';
import { placeCases } from './place-cases.js';
import type { Experiment, Rubric } from './types.js';
import { locate, parseYamlSource } from './yaml-source.js';
import { validateOnFinish } from './validate-on-finish.js';
import { describeIssues } from './zod-problems.js';

export interface LoadOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * The provider `--provider` puts on every model: missing-key warnings are made for it, so a
   * file with errors does not also warn about a key the command line made unnecessary.
   */
  provider?: string;
}

export interface LoadResult {
  experiment: Experiment;
  /** Warnings only: any error throws. */
  problems: Problem[];
}

export async function loadExperiment(ref: string, options: LoadOptions): Promise<LoadResult> {
  return loadExperimentFile(resolveExperimentFile(ref, options.cwd), options.env, options.provider);
}

export async function loadExperimentFile(
  file: string,
  env: NodeJS.ProcessEnv,
  provider?: string,
): Promise<LoadResult> {
  const problems: Problem[] = [];
  const fail = (): never => {
    throw new ValidationError(sortProblems(problems));
  };
  const read = await readSourceFile(file);
  if (!read.ok) {
    problems.push(
      read.invalidUtf8
        ? invalidUtf8Problem(file, read.invalidUtf8)
        : { severity: 'error', location: { file }, keyPath: '', message: `${file} ${read.reason}` },
    );
    return fail();
  }
  const source = parseYamlSource(file, read.text);
  problems.push(...source.problems);
  if (!source.usable) return fail();
  const where = { file, locate: (path: KeyPath) => locate(source, path) };
  const data = source.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    problems.push({
      severity: 'error',
      location: { file, ...where.locate([]) },
      keyPath: '',
      message: 'experiment.yaml must be a mapping of keys (name, prompt, cases, models, …)',
      hint: 'run `autoresearch init <name>` for a commented example',
    });
    return fail();
  }
  const raw = data as Record<string, unknown>;
  const parsed = ExperimentFile.safeParse(raw);
  if (!parsed.success) {
    problems.push(
      ...describeIssues(parsed.error.issues, {
        file,
        schema: ExperimentFile,
        data: raw,
        locate: where.locate,
      }),
    );
  }
  const partial = readPartialConfig(raw);
  const dir = dirname(file);

  const promptParts =
    partial.prompt === undefined ? { templates: [] } : await readPromptParts(partial.prompt, where, problems);
  const casesSource = await readCasesFile(partial.cases, where, problems);
  const rubricSource =
    partial.rubric === undefined
      ? undefined
      : await readReferencedFile(['rubric'], 'rubric', partial.rubric, where, problems);
  const output =
    partial.output === undefined
      ? undefined
      : await readOutputSchema(partial.output.json_schema, where, problems);
  const tools = partial.tools === undefined ? undefined : await readTools(partial.tools, where, problems);

  const scope = { agent: partial.agent !== undefined };
  let drafts: DraftCase[] | undefined;
  if (casesSource) {
    const loaded = loadCases(casesSource.path, casesSource.text);
    problems.push(...loaded.problems);
    drafts = loaded.cases;
    for (const c of drafts) {
      problems.push(
        ...validateCheckEntries(c.checks, {
          file: casesSource.path,
          base: [c.index, 'checks'],
          locate: (path) => c.locate(path.slice(1)),
          scope,
        }),
      );
    }
  }

  let rubric: Rubric | undefined;
  if (rubricSource) {
    const parsedRubric = parseRubric(rubricSource.path, rubricSource.text);
    problems.push(...parsedRubric.problems);
    rubric = parsedRubric.rubric;
  }

  const { parts } = promptParts;
  if (casesSource && drafts) {
    const templates = [...promptParts.templates, ...agentTaskTemplate(partial, where)];
    problems.push(...validatePrompt(templates, casesSource.path, drafts));
    if (parts) problems.push(...validateConversations(parts, casesSource.path, drafts, where));
  }

  const checks = readCheckEntries(raw);
  problems.push(...validateCheckEntries(checks, { ...where, base: ['checks'], scope }));

  const placed =
    casesSource && drafts && drafts.length > 0
      ? placeCases(drafts, readSearch(partial), { casesFile: casesSource.path, ...where })
      : undefined;
  if (placed) problems.push(...placed.problems);
  // A `search:` that fails the schema is reported as such; its defaults would only mislead here,
  // and so would a count of train cases taken from a cases file with mistakes in it.
  if (placed && casesSource && partial.search !== undefined) {
    const casesClean = !problems.some((p) => p.severity === 'error' && p.location.file === casesSource.path);
    problems.push(
      ...validateAcceptance(partial.search, casesClean ? placed.cases : null, {
        ...where,
        hasSearch: raw['search'] !== undefined,
        casesFile: casesSource.path,
      }),
    );
  }

  const configured = readConfiguredModels(raw);
  problems.push(...validateModelEntries(configured, where));
  problems.push(...validateGeneratorForShape(partial, configured.generator, where));
  problems.push(
    ...(await validateAgent(
      partial,
      configured.generator,
      casesSource && drafts ? { file: casesSource.path, drafts } : undefined,
      where,
    )),
  );
  // An `agent:` block that failed the schema is reported as such; "no agent" would only mislead.
  if (raw['agent'] === undefined || partial.agent !== undefined)
    problems.push(
      ...validateTriggers(
        partial.agent,
        checks,
        casesSource && drafts ? { file: casesSource.path, drafts } : undefined,
        where,
      ),
    );
  const needs = {
    hasRubric: partial.rubric !== undefined,
    hasExpectations: (drafts ?? []).some((c) => c.expectations.length > 0),
    agent: partial.agent !== undefined,
  };
  const generator = configured.generator;
  const models = generator ? resolveModels({ ...configured, generator }, needs) : undefined;
  if (models) problems.push(...findModelWarnings(configured, models, needs, env, where, provider));

  problems.push(...validateOnFinish(partial.on_finish, dir, env, where));

  // Without the cases we cannot tell whether expectations exist, so scoring waits for them.
  if (partial.scoring !== undefined && drafts !== undefined) {
    const signals = {
      checks: checks.length > 0 || drafts.some((c) => c.checks.length > 0),
      judge: needs.hasRubric,
      expectations: needs.hasExpectations,
    };
    problems.push(...validateScoring(readWeights(partial), signals, where));
  }

  if (problems.some((p) => p.severity === 'error')) return fail();
  // Every part exists once no error was found; these guards only satisfy the compiler.
  const optimised = parts?.filter((p) => p.optimise) ?? [];
  const first = optimised[0];
  if (!parsed.success || !parts || !first?.path || !casesSource || !placed || !models) return fail();
  const config = parsed.data;
  const warnings = sortProblems(problems);
  const experiment: Experiment = {
    name: config.name,
    description: config.description ?? '',
    file,
    dir,
    config,
    promptPath: first.path,
    prompt: joinPartTexts(Object.fromEntries(optimised.map((p) => [p.name, p.text]))),
    shape: { parts, ...(output ? { output } : {}), ...(tools ? { tools } : {}) },
    casesPath: casesSource.path,
    cases: placed.cases,
    ...(rubric ? { rubric } : {}),
    models,
    checks: config.checks,
    ...(config.agent ? { agent: resolveAgentTarget(config.agent, dir) } : {}),
    warnings,
  };
  return { experiment, problems: warnings };
}

/** The cases file, when its extension names a format we read. */
async function readCasesFile(
  value: string | undefined,
  where: Where,
  problems: Problem[],
): Promise<{ path: string; text: string } | undefined> {
  if (value === undefined) return undefined;
  const path = resolve(dirname(where.file), value);
  if (!isCaseFormat(path)) {
    problems.push({
      severity: 'error',
      location: { file: where.file, ...where.locate(['cases']) },
      keyPath: 'cases',
      message: `cases file must end in .yaml, .yml, .jsonl or .csv (got "${extname(path) || 'no extension'}")`,
    });
    return undefined;
  }
  return readReferencedFile(['cases'], 'cases', value, where, problems);
}

/**
 * docs/design/prompt-shapes.md: a generator `system` only beside a path prompt, and no tools for
 * the CLI providers.
 */
function validateGeneratorForShape(
  partial: PartialConfig,
  generator: ModelEntry | undefined,
  where: Where,
): Problem[] {
  const problems: Problem[] = [];
  const at = (key: KeyPath) => ({ file: where.file, ...where.locate(key) });
  if (generator?.system !== undefined && partial.prompt !== undefined && typeof partial.prompt !== 'string') {
    const both = partial.prompt.system !== undefined;
    problems.push({
      severity: 'error',
      location: at(['models', 'generator', 'system']),
      keyPath: 'models.generator.system',
      message: both
        ? '`models.generator.system` and `prompt.system` both set the system prompt'
        : '`models.generator.system` is allowed only with a path `prompt:`',
      hint: both
        ? 'keep one: `prompt.system` (it can be optimised when it is a file)'
        : 'move it into the prompt as `system:` (inline text, or `{ file: … }` to optimise it)',
    });
  }
  const provider = generator?.provider;
  if (partial.tools !== undefined && provider !== undefined && providerRecord(provider).agentCli) {
    problems.push({
      severity: 'error',
      location: at(['tools']),
      keyPath: 'tools',
      message: `\`tools:\` cannot be offered through the ${provider} generator: it runs with its own tools off`,
      hint: `use an API provider (${apiProviderList()}) or \`command\` for a generator with tools`,
    });
  }
  return problems;
}

/** An agent's task is a template over the case's vars like the prompt's parts. */
function agentTaskTemplate(partial: PartialConfig, where: Where): PromptTemplate[] {
  if (partial.agent === undefined) return [];
  const at = where.locate(['agent', 'task']);
  return [
    {
      name: 'agent.task',
      text: partial.agent.task,
      file: where.file,
      inline: { keyPath: 'agent.task', line: at.line, col: at.col },
    },
  ];
}

/** Errors before warnings; within each, files in the order met and lines in order. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  const fileOrder = new Map<string, number>();
  for (const p of problems)
    if (!fileOrder.has(p.location.file)) fileOrder.set(p.location.file, fileOrder.size);
  const rank = (p: Problem) => [
    p.severity === 'error' ? 0 : 1,
    fileOrder.get(p.location.file) ?? 0,
    p.location.line ?? 0,
    p.location.col ?? 0,
  ];
  return [...problems]
    .map((p, i) => ({ p, i, r: rank(p) }))
    .sort((a, b) => {
      for (let k = 0; k < a.r.length; k++) {
        const d = (a.r[k] as number) - (b.r[k] as number);
        if (d !== 0) return d;
      }
      return a.i - b.i;
    })
    .map(({ p }) => p);
}
