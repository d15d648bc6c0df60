/**
 * What every benchmark script shares: its flags, the build check, the timing and load of the
 * whole benchmark, printing its table, and writing its section of BENCHMARKS.md.
 *
 *   --smoke        a tiny version in seconds (figures meaningless; BENCHMARKS.md untouched)
 *   --out FILE     write the section to FILE instead of BENCHMARKS.md (also with --smoke)
 *   --install      (vs-promptfoo only) install the peer tool first
 */
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { provenance, writeSection } from './benchmarks-md.mjs';
import { loadAverage, machineLine } from './machine.mjs';
import { BENCHMARKS_MD, buildIsStale, REPO, requireBuilt } from './paths.mjs';

export function readFlags(argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      smoke: { type: 'boolean', default: false },
      out: { type: 'string' },
      install: { type: 'boolean', default: false },
    },
    strict: true,
  });
  return values;
}

/**
 * Runs `measure(flags)`, which resolves with { text, markdown }: the terminal table and the
 * section body (figures, targets, findings). Adds provenance and writes the section.
 */
export async function runBenchmark({ key, script, title }, measure) {
  const flags = readFlags();
  requireBuilt();
  if (buildIsStale()) {
    console.error('warning: src/ has changed since the last build; run `npm run build` for current figures');
  }
  console.log(`\n== ${title}${flags.smoke ? ' (smoke)' : ''} ==`);
  const loadBefore = loadAverage();
  const started = performance.now();
  const result = await measure(flags);
  const seconds = (performance.now() - started) / 1000;
  console.log(result.text);
  const out = flags.out ?? (flags.smoke ? undefined : BENCHMARKS_MD);
  if (result.markdown === undefined || out === undefined) return result;
  const body = [
    result.markdown.trim(),
    '',
    provenance({
      machine: machineLine(),
      loadBefore,
      loadAfter: loadAverage(),
      command: `node ${script}${flags.smoke ? ' --smoke' : ''}`,
      seconds,
    }),
  ].join('\n');
  writeSection(out, key, body);
  console.log(`(written to ${relative(REPO, out) || out})`);
  return result;
}
