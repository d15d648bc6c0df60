/**
 * `autoresearch grade <case-dir> --expectations <file>`: the built-in grader
 * (docs/design/grader-protocol.md). Reads `outputs/*.txt` (or, for an agent case, every file of its
 * `outputs/output_NN/` folders), `transcript.md` and, when there are
 * some, the case's `inputs/*.txt` (docs/design/judge-protocol.md) from the case folder, grades the
 * expectations with one model call, checks every PASS against the outputs and writes
 * `<case-dir>/grading.json` (or `--out`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AutoresearchError } from '../../errors.js';
import { formatGradeLine, runBuiltinGrader } from '../../grader/builtin-grader.js';
import { GRADING_FILE, NO_TRANSCRIPT } from '../../grader/grader-layout.js';
import { INPUTS_DIR, isInOutputFolder, OUTPUTS_DIR } from '../../protocol/review-files.js';
import { parseExpectations } from '../../grader/read-expectations.js';
import { flaggedExpectations } from '../../grader/verify-grading.js';
import { settingsToEntry } from '../../protocol/model-settings.js';
import { withProxyHints } from '../../sandbox/proxy-hints.js';
import { readGraderOutputFiles, readPipedStdin, readTxtFiles } from '../../judge/read-text-outputs.js';
import { resolveStandaloneSettings } from '../../judge/standalone-settings.js';
import { createModelPool } from '../../providers/model-pool.js';
import { terminal } from '../../ui/terminal.js';

export interface GradeOptions {
  expectations: string;
  model?: string;
  out?: string;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

async function readCaseOutputs(caseDir: string) {
  const nested = await readGraderOutputFiles(join(caseDir, OUTPUTS_DIR), OUTPUTS_DIR);
  if (nested.length > 0) return nested;
  return readTxtFiles(caseDir);
}

async function readCaseInputs(caseDir: string) {
  const inputs = await readTxtFiles(join(caseDir, INPUTS_DIR));
  return inputs.map((i) => ({ file: `${INPUTS_DIR}/${i.file}`, text: i.text }));
}

export default async function gradeCommand(caseDir: string, options: GradeOptions): Promise<number> {
  const term = terminal();
  const env = process.env;
  const stdinText = options.model === undefined ? await readPipedStdin() : '';
  const settings = resolveStandaloneSettings({ stdinText, modelFlag: options.model, env, command: 'grade' });
  const dir = resolve(caseDir);
  const expectationsText = await readOptional(resolve(options.expectations));
  if (expectationsText === undefined) {
    throw new AutoresearchError('E_NOT_FOUND', `cannot read the expectations file ${options.expectations}`, {
      hint: 'a YAML/JSON list of strings, or one expectation per line',
    });
  }
  const expectations = parseExpectations(expectationsText);
  if (expectations.length === 0) {
    throw new AutoresearchError('E_USAGE', `${options.expectations} holds no expectations`, {
      hint: 'a YAML/JSON list of strings, or one expectation per line',
    });
  }
  const outputs = await readCaseOutputs(dir);
  if (outputs.length === 0) {
    throw new AutoresearchError('E_USAGE', `no outputs in ${join(caseDir, 'outputs')}`, {
      hint: 'a case folder holds outputs/*.txt (or an agent case’s outputs/output_NN/ folders) and, optionally, transcript.md',
    });
  }
  const transcript = (await readOptional(join(dir, 'transcript.md'))) ?? NO_TRANSCRIPT;
  const inputs = await readCaseInputs(dir);
  const pool = createModelPool({ models: { grader: settingsToEntry(settings) }, concurrency: 1, env });
  try {
    const result = await runBuiltinGrader({
      expectations,
      transcript,
      outputs,
      ...(inputs.length === 0 ? {} : { inputs }),
      // An agent case's folders come with the agent's own transcript, evidence like its files.
      ...(outputs.some((o) => isInOutputFolder(o.file)) ? { agent: true } : {}),
      model: settings.proxy_hints === true ? withProxyHints(pool.client('grader')) : pool.client('grader'),
    });
    if (!result.ok) {
      throw new AutoresearchError('E_GRADER', `the grader could not grade the outputs: ${result.message}`, {
        hint: 'nothing was written; check the model settings and try again',
      });
    }
    const out = options.out === undefined ? join(dir, GRADING_FILE) : resolve(options.out);
    await writeFile(out, `${JSON.stringify(result.grading, null, 2)}\n`, 'utf8');
    if (result.simulated)
      term.err(term.colors.yellow('simulated grader (sim provider): these grades are not a real model’s'));
    for (const item of flaggedExpectations(result.grading))
      term.err(`${term.colors.yellow('flagged')}: ${item.text} — ${item.flag}`);
    term.out(formatGradeLine(result.grading));
    return 0;
  } finally {
    await pool.close();
  }
}
