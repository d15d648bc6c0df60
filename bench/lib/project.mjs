/**
 * A throwaway project for one benchmark: experiments/bench/ (prompt, N generated cases,
 * experiment.yaml), the cold-email rubric, optionally a git repository around it. The YAML
 * files are written as JSON, which YAML reads as is.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './paths.mjs';

const TOPICS = [
  'usage-based billing',
  'online appointment booking',
  'route optimisation for delivery vans',
  'managed laptop fleets',
  'kitchen inventory tracking',
  'contract review automation',
  'cart abandonment',
  'donor retention analytics',
  'sterile supply tracking',
  'white-label reporting',
  'cloud cost alerts',
  'bookkeeping automation',
];
const AUDIENCES = [
  'the CTO of a 50-person SaaS company',
  'the owner of a two-doctor dental clinic',
  'the head of operations at a regional courier',
  'the IT coordinator of a secondary school',
  'the COO of a restaurant group',
  'the managing partner of a law firm',
  'a founder selling ceramics online',
  'the director of a food bank',
];

export const PROMPT = 'Write a short cold email about {{topic}} for {{audience}}.\n';

/** `count` distinct cases: case-000, case-001, … */
export function benchCases(count) {
  return Array.from({ length: count }, (_, i) => ({
    id: `case-${String(i).padStart(3, '0')}`,
    vars: {
      topic: TOPICS[i % TOPICS.length],
      audience: `${AUDIENCES[Math.floor(i / TOPICS.length) % AUDIENCES.length]} (#${i})`,
    },
  }));
}

/** The checks every benchmark experiment carries (promptfoo-compatible names). */
export const BENCH_CHECKS = [
  { type: 'starts-with', value: 'Subject:' },
  { type: 'word-count', max: 150 },
  { type: 'not-contains', value: '[', name: 'no-template-brackets' },
  { type: 'not-icontains-any', value: ['synergy', 'leverage', 'circle back'] },
  { type: 'regex', value: '\\?\\s*$', name: 'ends-with-question' },
];

/** Model entries that send every role to a fake server over the Anthropic wire format. */
export function fakeServerModels(baseUrl, api = 'anthropic') {
  const model = api === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o-mini';
  const entry = { provider: api, model, base_url: baseUrl, max_retries: 0 };
  return {
    generator: { ...entry, temperature: 0.7, max_tokens: 800 },
    mutator: { ...entry, max_tokens: 4000 },
    judge: { ...entry, temperature: 0, samples: 1 },
  };
}

export const SIM_MODELS = {
  generator: { provider: 'sim', model: 'sim-1', temperature: 0.7 },
  mutator: { provider: 'sim', model: 'sim-1' },
  judge: { provider: 'sim', model: 'sim-1', temperature: 0 },
};

/**
 * Creates the project and returns { dir, experimentDir, remove() }. Options: cases (number),
 * rubric (bool), models, checks, search, budget, scoring, concurrency, git (bool), base (the
 * folder to create it in; default the OS temporary folder).
 */
export function createProject(options) {
  const dir = mkdtempSync(join(options.base ?? tmpdir(), 'ar-bench-'));
  const experimentDir = join(dir, 'experiments', 'bench');
  mkdirSync(experimentDir, { recursive: true });
  writeFileSync(join(experimentDir, 'prompt.md'), PROMPT);
  writeFileSync(join(experimentDir, 'cases.yaml'), `${JSON.stringify(benchCases(options.cases), null, 1)}\n`);
  const experiment = {
    name: 'bench',
    prompt: 'prompt.md',
    cases: 'cases.yaml',
    ...(options.rubric ? { rubric: '../../rubrics/bench.md' } : {}),
    models: options.models,
    checks: options.checks ?? BENCH_CHECKS,
    ...(options.scoring ? { scoring: options.scoring } : {}),
    search: { seed: 1, ...(options.search ?? {}) },
    budget: { hours: 8, ...(options.budget ?? {}) },
    concurrency: options.concurrency ?? 8,
  };
  writeFileSync(join(experimentDir, 'experiment.yaml'), `${JSON.stringify(experiment, null, 1)}\n`);
  if (options.rubric) {
    mkdirSync(join(dir, 'rubrics'));
    cpSync(join(REPO, 'rubrics', 'cold-email.md'), join(dir, 'rubrics', 'bench.md'));
  }
  if (options.git) {
    writeFileSync(join(dir, '.gitignore'), 'runs/\n');
    const git = (...args) =>
      execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
        cwd: dir,
        stdio: 'ignore',
      });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'bench project');
  }
  return { dir, experimentDir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
