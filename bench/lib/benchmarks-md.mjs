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
  {
    key: 'acceptance',
    title: '7. Acceptance: paired statistics vs version 1',
    script: 'bench/acceptance.mjs',
  },
  { key: 'search', title: '8. Search: pareto vs greedy', script: 'bench/search.mjs' },
  { key: 'cost', title: '9. Cost: batch and prompt caching', script: 'bench/cost.mjs' },
  { key: 'agent', title: '10. Agent cases', script: 'bench/agent.mjs' },
];

const HEADER = `# Benchmarks

What the runner itself costs next to the model calls it makes, how it behaves as runs grow,
how it compares with promptfoo on the same evaluation, and how often its acceptance rule keeps
a change that is not really better. Every figure below is written by a script in \`bench/\`; none
is typed by hand.

- \`npm run build && npm run bench\` runs all ten (the first seven in under ten minutes; section
  8 runs sixty whole loops and says how long they took, section 9 four runs of ten iterations; promptfoo is compared only when it
  is installed: \`npm run bench -- --with-promptfoo\` installs it first).
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
Sections 7 and 8 are exceptions: they time nothing. Section 7 calls the product's decision
functions (from \`dist/\`) on per-case scores drawn from a simulated truth the benchmark controls;
section 8 compares two search strategies by the scores and model calls of whole simulated runs
(its run time is given only so the benchmark can be planned).

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

function sectionBlock(section, content) {
  const { start, end } = markers(section.key);
  return `## ${section.title}\n\n${start}\n${content}\n${end}\n`;
}

/**
 * Replaces the section `key` of `file` with `body` (Markdown). An existing file keeps every
 * other line as it is (the header, notes written between the sections); a section it lacks is
 * placed before the first later section it has, or at the end. An absent file is created with
 * the header and every section.
 */
export function writeSection(file, key, body) {
  const section = SECTIONS.find((s) => s.key === key);
  if (!section) throw new Error(`unknown section ${key}`);
  const content = body.trim();
  if (!existsSync(file)) {
    const parts = SECTIONS.map((s) =>
      sectionBlock(s, s.key === key ? content : `Not measured yet: run \`node ${s.script}\`.`),
    );
    writeFileSync(file, [HEADER, ...parts].join('\n'));
    return;
  }
  const text = readFileSync(file, 'utf8');
  const { start, end } = markers(key);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from >= 0 && to > from) {
    writeFileSync(file, `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`);
    return;
  }
  const later = SECTIONS.slice(SECTIONS.indexOf(section) + 1)
    .map((s) => text.indexOf(`## ${s.title}\n`))
    .filter((at) => at >= 0);
  const at = later.length > 0 ? Math.min(...later) : text.length;
  const before = text.slice(0, at);
  const gap = before.endsWith('\n\n') || before === '' ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  writeFileSync(
    file,
    `${before}${gap}${sectionBlock(section, content)}${at < text.length ? '\n' : ''}${text.slice(at)}`,
  );
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
