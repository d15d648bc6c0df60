/**
 * `autoresearch judge <outputs-dir> --rubric <file>`: the built-in judge
 * (docs/design/judge-protocol.md). Scores every `.txt` output and every agent case's `output_NN/`
 * folder (docs/design/judge-protocol.md "Agent outputs") against the rubric — each
 * `output_NN.txt` with its `inputs/input_NN.txt` when the folder beside the outputs holds one
 * (docs/design/prompt-shapes.md) — writes `judge-scores.json` in the current folder (or `--out`) and prints
 * `JUDGE quality_score=X.XXXX`. The runner starts it inside the judge sandbox with its model
 * settings on stdin; by hand it works on any folder of outputs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AutoresearchError, ValidationError } from '../../errors.js';
import { parseRubric } from '../../experiment/rubric.js';
import { runBuiltinJudge } from '../../judge/builtin-judge.js';
import { formatJudgeLine, JUDGE_SCORES_FILE } from '../../judge/judge-scores.js';
import { settingsToEntry } from '../../protocol/model-settings.js';
import { withProxyHints } from '../../sandbox/proxy-hints.js';
import { readOutputsFolder, readPipedStdin } from '../../judge/read-text-outputs.js';
import { resolveStandaloneSettings } from '../../judge/standalone-settings.js';
import { createModelPool } from '../../providers/model-pool.js';
import { terminal } from '../../ui/terminal.js';

export interface JudgeOptions {
  rubric: string;
  model?: string;
  samples?: string;
  /** Where the scores go instead of judge-scores.json in the current folder (the sandbox's place). */
  out?: string;
}

function parseSamples(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new AutoresearchError('E_USAGE', `--samples must be a whole number >= 1, got "${value}"`);
  }
  return n;
}

async function readRubric(path: string) {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new AutoresearchError('E_NOT_FOUND', `cannot read the rubric ${path}`, {
      hint: 'pass a rubric markdown file with --rubric',
    });
  }
  const parsed = parseRubric(path, text);
  if (parsed.rubric === undefined) throw new ValidationError(parsed.problems);
  return parsed.rubric;
}

export default async function judgeCommand(outputsDir: string, options: JudgeOptions): Promise<number> {
  const term = terminal();
  const env = process.env;
  const samplesFlag = parseSamples(options.samples);
  const stdinText = options.model === undefined ? await readPipedStdin() : '';
  const settings = resolveStandaloneSettings({ stdinText, modelFlag: options.model, env, command: 'judge' });
  const rubric = await readRubric(resolve(options.rubric));
  const outputs = await readOutputsFolder(resolve(outputsDir));
  if (outputs.length === 0) {
    throw new AutoresearchError(
      'E_USAGE',
      `no .txt outputs or output_NN/ folders in ${outputsDir} (nor in ${join(outputsDir, 'outputs')})`,
      {
        hint: 'point it at a folder holding one .txt file, or one output_NN/ folder of an agent case, per output',
      },
    );
  }
  const entry = settingsToEntry(settings);
  const pool = createModelPool({ models: { judge: entry }, concurrency: settings.concurrency ?? 8, env });
  try {
    const result = await runBuiltinJudge({
      outputs,
      rubricText: rubric.text,
      criteria: rubric.criteria.map((c) => c.key),
      checklists: Object.fromEntries(rubric.criteria.flatMap((c) => (c.items ? [[c.key, c.items]] : []))),
      model: settings.proxy_hints === true ? withProxyHints(pool.client('judge')) : pool.client('judge'),
      samples: samplesFlag ?? settings.samples ?? 1,
      concurrency: settings.concurrency ?? 8,
    });
    if (!result.ok) {
      throw new AutoresearchError('E_JUDGE', `the judge could not score the outputs: ${result.message}`, {
        hint: 'nothing was written; check the model settings and try again',
      });
    }
    await writeFile(
      options.out === undefined ? join(process.cwd(), JUDGE_SCORES_FILE) : resolve(options.out),
      `${JSON.stringify(result.scores, null, 2)}\n`,
      'utf8',
    );
    if (result.simulated)
      term.err(term.colors.yellow('simulated judge (sim provider): these scores are not a real model’s'));
    term.out(formatJudgeLine(result.scores.quality_score));
    return 0;
  } finally {
    await pool.close();
  }
}
