/**
 * experiment.yaml for an import: the usual keys, the models mapped from promptfoo's providers
 * (the others as commented alternatives), the shared checks from `defaultTest`, and — at the
 * top — every setting that could not be imported and every change the import made.
 */
import { stringify } from 'yaml';
import type { CheckEntry, ModelEntry, PromptParts } from '../../experiment/schema.js';
import type { Unmapped } from './findings.js';
import type { MappedModel } from './map-provider.js';
import { commentLines, flowYaml, listItemYaml } from './render-yaml.js';

export interface ExperimentDraft {
  name: string;
  description: string;
  /** The config as the user named it, and which of its prompts was imported. */
  source: string;
  promptChoice: string;
  generator: MappedModel | undefined;
  defaultGenerator: ModelEntry;
  /** A chat prompt's parts (docs/design/prompt-shapes.md); absent: `prompt: prompt.md`. */
  parts?: PromptParts;
  /** The files beside experiment.yaml holding the output schema and the tools, when the provider set them. */
  output?: string;
  tools?: string;
  alternatives: readonly MappedModel[];
  /** Roles a program generator cannot fill (it is no language model). */
  extraRoles: { role: 'mutator' | 'grader'; entry: ModelEntry; why: string }[];
  checks: readonly CheckEntry[];
  /** True when rubrics/<name>.md is written alongside (nothing else could be scored). */
  rubric: boolean;
  samples?: number;
  concurrency?: number;
  /** Train cases after the split at IMPORT_HOLDOUT: paired acceptance needs at least 2. */
  trainCases: number;
  unmapped: readonly Unmapped[];
  notes: readonly string[];
}

function header(draft: ExperimentDraft): string[] {
  const lines = [
    ...commentLines(`The experiment "${draft.name}", imported from the promptfoo config ${draft.source}`),
    ...commentLines(`(${draft.promptChoice}). Check it with:  autoresearch validate ${draft.name}`),
    '#',
  ];
  if (draft.unmapped.length === 0) lines.push('# Everything in the promptfoo config was imported.');
  else {
    lines.push(
      `# NOT IMPORTED (${draft.unmapped.length}): promptfoo settings with no equivalent here. Nothing else was dropped.`,
    );
    for (const item of draft.unmapped) lines.push(...commentLines(`- ${item.what}: ${item.why}`, '#   '));
  }
  if (draft.notes.length > 0) {
    lines.push('#', '# Import notes:');
    for (const note of draft.notes) lines.push(...commentLines(`- ${note}`, '#   '));
  }
  return lines;
}

function models(draft: ExperimentDraft): string[] {
  const lines = ['models:'];
  if (draft.generator) {
    lines.push(...commentLines(`From the promptfoo provider ${draft.generator.origin}.`, '  # '));
    lines.push(`  generator: ${flowYaml(draft.generator.entry)}`);
  } else {
    lines.push(
      '  # No promptfoo provider could be mapped (see NOT IMPORTED above); this is the default. Needs ANTHROPIC_API_KEY.',
    );
    lines.push(`  generator: ${flowYaml(draft.defaultGenerator)}`);
  }
  if (draft.alternatives.length > 0) {
    lines.push('  # The other promptfoo providers, to use instead:');
    for (const alt of draft.alternatives)
      lines.push(`  #   generator: ${flowYaml(alt.entry)}   # ${alt.origin}`);
  }
  lines.push(
    '  # Other choices: { provider: openai, model: llama3.1, base_url: "http://127.0.0.1:11434/v1" } (a local server),',
    '  #   { provider: claude-cli } (your logged-in `claude`), { provider: codex-cli } (your logged-in `codex`),',
    '  #   { provider: sim } (offline simulation).',
  );
  for (const extra of draft.extraRoles) {
    lines.push(...commentLines(extra.why, '  # '));
    lines.push(`  ${extra.role}: ${flowYaml(extra.entry)}`);
  }
  return lines;
}

/** The holdout share an import writes. */
export const IMPORT_HOLDOUT = 0.25;

function acceptanceLines(trainCases: number): string[] {
  if (trainCases < 2)
    return [
      `  acceptance: margin               # paired statistics need 2+ train cases; these tests leave ${trainCases}`,
    ];
  return [
    '  acceptance: paired               # keep a change only when per-case paired statistics show it is better',
    '  # confidence: 0.9  min_effect: 0.01  retest: 1  minibatch: 8   (see docs/experiment.md)',
  ];
}

function promptLines(draft: ExperimentDraft): string[] {
  if (draft.parts === undefined)
    return [
      'prompt: prompt.md                  # the ONLY file the loop changes; {{var}} placeholders take case values',
    ];
  const { system, messages = [], optimise = [] } = draft.parts;
  // Inline texts in block style (they span lines and hold {{vars}}), file references on one line.
  const turns = messages.flatMap((message) =>
    typeof message.content === 'string'
      ? stringify([message], { lineWidth: 0 }).trimEnd().split('\n')
      : [`- ${flowYaml(message)}`],
  );
  return [
    `prompt:                            # the chat prompt's parts; the loop changes only ${optimise.join(', ')}`,
    ...(system === undefined ? [] : [`  system: ${flowYaml(system)}`]),
    ...(turns.length === 0 ? [] : ['  messages:', ...turns.map((line) => `    ${line}`.trimEnd())]),
    `  optimise: ${flowYaml(optimise).replace(/^\[ (.*) \]$/, '[$1]')}`,
  ];
}

function shapeLines(draft: ExperimentDraft): string[] {
  return [
    ...(draft.output === undefined
      ? []
      : [
          "output:                            # from the provider's response_format: answers follow this schema",
          `  json_schema: ${draft.output}`,
        ]),
    ...(draft.tools === undefined
      ? []
      : [`tools: ${draft.tools}                  # from the provider's tools: offered to the generator`]),
  ];
}

export function renderExperimentYaml(draft: ExperimentDraft): string {
  const lines = [
    ...header(draft),
    '',
    `name: ${draft.name}`,
    `description: ${flowYaml(draft.description)}`,
    ...promptLines(draft),
    ...shapeLines(draft),
    'cases: cases.yaml                  # the promptfoo tests, one case each',
    draft.rubric
      ? `rubric: ../../rubrics/${draft.name}.md     # a general rubric: rewrite its criteria for this task`
      : `# rubric: ../../rubrics/${draft.name}.md   # optional: with a rubric, an isolated judge scores every output`,
    '',
    ...models(draft),
    '',
  ];
  if (draft.checks.length === 0)
    lines.push('checks: []                         # deterministic checks applied to every case');
  else {
    lines.push('checks:                            # from defaultTest: applied to every case');
    for (const check of draft.checks) lines.push(listItemYaml(check as Record<string, unknown>, 2));
  }
  lines.push(
    '',
    'search:',
    ...acceptanceLines(draft.trainCases),
    `  samples: ${draft.samples ?? 1}                       # generations per case per candidate`,
    `  holdout: ${IMPORT_HOLDOUT}                    # share of cases the mutator never sees`,
    '',
    'budget:                            # the first limit reached stops the run',
    '  iterations: 20',
    '  hours: 2',
    '  usd: 5',
    '',
    `concurrency: ${draft.concurrency ?? 4}`,
  );
  return `${lines.join('\n')}\n`;
}
