#!/usr/bin/env node
/**
 * Large cases files: `autoresearch validate` of one experiment whose cases file holds 200,000
 * cases (about 50 MB), once as JSONL and once as CSV, measured as a whole process (wall time
 * and peak resident memory). Target: each ≤ 10 s and ≤ 1 GB. A YAML file of that
 * size is not measured: YAML parsing cannot reach the target, and above 20,000 YAML cases
 * `validate` says to use JSONL.
 *
 *   node bench/cases-scale.mjs             200,000 cases
 *   node bench/cases-scale.mjs --smoke     2,000 cases (seconds)
 *   node bench/cases-scale.mjs --cases N   N cases
 *
 * Not part of `npm run bench`: it writes no section of BENCHMARKS.md.
 */
import { createWriteStream, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanEnv } from './lib/cli.mjs';
import { runMeasured } from './lib/measure-process.mjs';
import { CLI, requireBuilt } from './lib/paths.mjs';
import { createProject, SIM_MODELS } from './lib/project.mjs';
import { mib, ms, verdict } from './lib/stats.mjs';
import { textTable } from './lib/table.mjs';

const TARGET_MS = 10_000;
const TARGET_KIB = 1024 * 1024;
const FILLER = 'Keep it under 120 words, name one concrete benefit and end with a question.';

const { values } = parseArgs({
  options: { smoke: { type: 'boolean', default: false }, cases: { type: 'string' } },
  strict: true,
});
const count = values.cases !== undefined ? Number(values.cases) : values.smoke ? 2_000 : 200_000;

/** One case's values: about 250 bytes, like a real cases file with a paragraph of context. */
function caseValues(i) {
  return {
    id: `case-${i}`,
    topic: `topic number ${i} for a product that tracks ${i % 97} kinds of inventory`,
    audience: `the head of operations at company ${i} (${i % 13} sites, ${i % 400} people)`,
    notes: `Variant ${i % 11}. ${FILLER.slice(0, 40 + (i % 35))}`,
  };
}

async function writeLines(path, lines) {
  const out = createWriteStream(path);
  for (const line of lines) if (!out.write(line)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

function* jsonlLines() {
  for (let i = 0; i < count; i++) {
    const { id, ...vars } = caseValues(i);
    yield `${JSON.stringify({ id, vars })}\n`;
  }
}

function* csvLines() {
  yield 'id,topic,audience,notes\n';
  const quote = (v) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  for (let i = 0; i < count; i++) {
    const v = caseValues(i);
    yield `${[v.id, v.topic, v.audience, v.notes].map(quote).join(',')}\n`;
  }
}

requireBuilt();
const rows = [];
let failed = false;
for (const [format, lines] of [
  ['jsonl', jsonlLines],
  ['csv', csvLines],
]) {
  const project = createProject({ cases: 1, models: SIM_MODELS });
  try {
    const file = join(project.experimentDir, `cases.${format}`);
    await writeLines(file, lines());
    const experiment = join(project.experimentDir, 'experiment.yaml');
    const config = JSON.parse(readFileSync(experiment, 'utf8'));
    writeFileSync(experiment, JSON.stringify({ ...config, cases: `cases.${format}` }, null, 1));
    writeFileSync(
      join(project.experimentDir, 'prompt.md'),
      'Write a short cold email about {{topic}} for {{audience}}. {{notes}}\n',
    );
    const bytes = statSync(file).size;
    const result = await runMeasured([process.execPath, CLI, 'validate', 'bench'], {
      cwd: project.dir,
      env: cleanEnv(),
    });
    if (result.code !== 0) {
      failed = true;
      console.error(`validate (${format}) exited ${result.code}:\n${result.stdout}${result.stderr}`);
    }
    const peakKib = Number.isFinite(result.largestProcessKib) ? result.largestProcessKib : result.peakTreeKib;
    const ok = result.code === 0 && result.wallMs <= TARGET_MS && peakKib <= TARGET_KIB;
    if (!ok) failed = true;
    rows.push([
      format,
      count.toLocaleString('en'),
      mib(bytes / 1024),
      ms(result.wallMs),
      ms(result.cpuMs),
      mib(peakKib),
      verdict(ok),
    ]);
  } finally {
    project.remove();
  }
}
console.log(
  textTable(['format', 'cases', 'file', 'validate wall', 'CPU', 'peak RSS', 'target ≤ 10 s, ≤ 1 GiB'], rows),
);
// A busy machine stretches the wall time; the CPU time (with GNU time) shows the work itself.
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${availableParallelism()} cores`,
);
if (failed) process.exitCode = 1;
