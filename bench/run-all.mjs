#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark, one after the other, each in its own process (so one
 * cannot warm or pollute the next), each printing its table and rewriting its section of
 * BENCHMARKS.md.
 *
 *   npm run bench                       all ten; promptfoo only if already in bench/.peers/
 *   npm run bench -- --with-promptfoo   install promptfoo 0.121.20 there first when missing
 *   npm run bench -- --smoke            the tiny versions (seconds; BENCHMARKS.md untouched)
 *   npm run bench -- --out FILE         write the sections to FILE instead
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { SECTIONS } from './lib/benchmarks-md.mjs';
import { REPO, requireBuilt } from './lib/paths.mjs';
import { ms } from './lib/stats.mjs';

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    out: { type: 'string' },
    'with-promptfoo': { type: 'boolean', default: false },
  },
  strict: true,
});

requireBuilt();
const started = performance.now();
const outcomes = [];
for (const section of SECTIONS) {
  const args = [join(REPO, section.script)];
  if (values.smoke) args.push('--smoke');
  if (values.out !== undefined) args.push('--out', values.out);
  if (section.key === 'vs-promptfoo' && values['with-promptfoo']) args.push('--install');
  const begun = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  outcomes.push({ title: section.title, code, ms: performance.now() - begun });
}

console.log('\n== summary ==');
for (const o of outcomes)
  console.log(`${o.code === 0 ? 'ok    ' : 'FAILED'}  ${ms(o.ms).padStart(8)}  ${o.title}`);
console.log(`total ${ms(performance.now() - started)}`);
if (outcomes.some((o) => o.code !== 0)) process.exitCode = 1;
