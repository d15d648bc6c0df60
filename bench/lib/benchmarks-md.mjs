/**
 * BENCHMARKS.md: a fixed header and one section per benchmark between markers. Each script
 * replaces only its own section, so the benchmarks can run one at a time and the file keeps
 * the latest figures of every one.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const SECTIONS = [
  { key: 'concurrency', title: '1. Concurrency efficiency', script: 'bench/concurrency.mjs' },
  { key: 'overhead', title: '2. Orchestration overhead', script: 'bench/overhead.mjs' },
  { key: 'vs-promptfoo', title: '3. Against promptfoo', script: 'bench/vs-promptfoo.mjs' },
  { key: 'resume', title: '4. Resume cost', script: 'bench/resume-cost.mjs' },
  { key: 'scale', title: '5. Scale', script: 'bench/scale.mjs' },
  { key: 'startup', title: '6. Start-up', script: 'bench/startup.mjs' },
];

const HEADER = `# Benchmarks

What the runner itself costs next to the model calls it makes, how it behaves as runs grow,
and how it compares with promptfoo on the same evaluation. Every figure below is written by
a script in \`bench/\`; none is typed by hand.

- \`npm run build && npm run bench\` runs all six (under ten minutes; promptfoo is compared
  only when it is installed: \`npm run bench -- --with-promptfoo\` installs it first).
- \`node bench/<name>.mjs\` runs one and rewrites only its section of this file.
- \`--smoke\` runs a tiny version of each in seconds (CI uses it so the scripts keep working;
  its figures mean nothing and it never writes here).

Method, for every benchmark: the built CLI (\`dist/\`) as a user runs it, in a fresh
temporary project; model calls go to a fake LLM server in the benchmark's own process
(\`test/helpers/fake-llm-server.js\`, the one the tests use: the Anthropic and OpenAI wire
formats, a fixed latency, replies from the built simulated model) or to the in-process \`sim\` provider. Figures are
medians over several runs; where two things are compared, both are measured side by side,
interleaved, in one process run. Each section says when it was measured, on what, and how
busy the machine was (load average above the CPU count means other work shared the CPUs,
which inflates wall times; CPU times are given beside them where that matters).

Fixed in the product while measuring (profiles with \`node --cpu-prof\`, allocation sampling,
heap snapshots):

- The run recorder re-folded the whole journal on every emit (quadratic over a long run); it
  now folds each event once (\`createRunFold\` in \`src/run/run-fold.ts\`), and \`reduceRun\` is
  a loop over it.
- Every CLI process that had made an HTTP call lingered after its work until fetch's idle
  timers ran out (up to a second): each judge and grader subprocess added that to every
  evaluation, and \`eval\` to its own exit. The CLI now ends as soon as its command has finished
  and its output is flushed (\`src/cli/main.ts\`).
- The CLI-based model adapters (and with them execa) are loaded only when an experiment uses
  them, so the judge subprocess and HTTP-only runs start without them.
`;

function markers(key) {
  return { start: `<!-- bench:${key}:start -->`, end: `<!-- bench:${key}:end -->` };
}

function existingSections(text) {
  const found = new Map();
  for (const { key } of SECTIONS) {
    const { start, end } = markers(key);
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from >= 0 && to > from) found.set(key, text.slice(from + start.length, to).trim());
  }
  return found;
}

/** Replaces the section `key` of `file` (creating the file when absent) with `body` (Markdown). */
export function writeSection(file, key, body) {
  if (!SECTIONS.some((s) => s.key === key)) throw new Error(`unknown section ${key}`);
  const sections = existsSync(file) ? existingSections(readFileSync(file, 'utf8')) : new Map();
  sections.set(key, body.trim());
  const parts = [HEADER];
  for (const section of SECTIONS) {
    const { start, end } = markers(section.key);
    const content = sections.get(section.key) ?? `Not measured yet: run \`node ${section.script}\`.`;
    parts.push(`## ${section.title}\n\n${start}\n${content}\n${end}\n`);
  }
  writeFileSync(file, parts.join('\n'));
}

/** The closing lines every section carries: when, on what, how busy, and the command. */
export function provenance({ machine, loadBefore, loadAfter, command, seconds }) {
  return [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; ` +
      `load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after; ` +
      `the benchmark took ${seconds.toFixed(0)} s.`,
    `Reproduce: \`${command}\``,
  ].join('\n');
}
