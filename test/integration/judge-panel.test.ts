/**
 * The promise "a panel experiment runs and its report shows inter-judge agreement": the
 * judge-panel fixture (two simulated judges, median, a checklist criterion) run offline with
 * the built CLI, each member in its own sandbox. Its journal, `show`, the report page and
 * `eval` all carry Krippendorff's alpha (the report drawn in Debian's Chromium, as
 * report-browser.test.ts does); a single built-in judge answers the checklist item by item
 * into judge-scores.json. Needs `npm run build` first.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readJournal } from '../../src/run/journal.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';

const FIXTURE = resolve(REPO_ROOT, 'test/fixtures/experiments/judge-panel');

let project = '';
beforeAll(async () => {
  requireBuiltCli();
  project = await mkdtemp(join(tmpdir(), 'ar-panel-'));
  await cp(FIXTURE, join(project, 'experiments', 'judge-panel'), { recursive: true });
});
afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

const env = () => cleanEnv({ COLUMNS: '160' });

describe('a judge panel end to end (--provider sim)', () => {
  it('runs, journals alpha per evaluation, and show and the report display it', async () => {
    const result = await runBuiltCli(['run', 'judge-panel', '--provider', 'sim'], {
      cwd: project,
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    const runsDir = join(project, 'runs');
    const [runId] = runFolders(runsDir);
    const runDir = join(runsDir, String(runId));

    const { events } = await readJournal(runDir);
    const evaluated = events.filter((e) => e.type === 'candidate_evaluated');
    expect(evaluated.length).toBeGreaterThanOrEqual(3);
    for (const event of evaluated) {
      const alpha = event.type === 'candidate_evaluated' ? event.judgeAlpha : undefined;
      expect(typeof alpha === 'number' || alpha === null).toBe(true);
    }
    // Two simulated judges that differ only by their rare jitter agree closely, not perfectly always.
    const alphas = evaluated.map((e) => (e.type === 'candidate_evaluated' ? e.judgeAlpha : null));
    expect(alphas.some((a) => typeof a === 'number' && a > 0.5)).toBe(true);

    const evaluation = JSON.parse(
      await readFile(join(runDir, 'iterations', '0000', 'candidates', '0', 'evaluation.json'), 'utf8'),
    );
    const panel = evaluation.evaluation.judge.panel;
    expect(panel.aggregate).toBe('median');
    expect(panel.members.map((m: { label: string }) => m.label)).toEqual([
      'sim/sim-judge-a',
      'sim/sim-judge-b',
    ]);
    expect(panel.members[0].scores).toHaveLength(5);
    expect(Object.keys(panel.alphaByCriterion).sort()).toEqual(['clarity', 'essentials', 'relevance']);

    const shown = await runBuiltCli(['show', String(runId)], { cwd: project, env: env() });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/ALPHA/);
    expect(shown.stdout).toMatch(/Krippendorff's alpha/);
    const baselineRow = shown.stdout.split('\n').find((line) => /^\s*0\s+baseline/.test(line)) ?? '';
    const baselineAlpha = evaluated[0]?.type === 'candidate_evaluated' ? evaluated[0].judgeAlpha : null;
    expect(baselineRow).toContain(typeof baselineAlpha === 'number' ? baselineAlpha.toFixed(2) : 'n/a');

    const html = await readFile(join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('"alphaByCriterion"');
    await expectReportShowsAlpha(join(runDir, 'report.html'), baselineAlpha ?? null);

    const evaluated2 = await runBuiltCli(['eval', 'judge-panel', '--provider', 'sim'], {
      cwd: project,
      env: env(),
    });
    expect(evaluated2.code, evaluated2.stderr).toBe(0);
    expect(evaluated2.stdout).toMatch(
      /Panel\s+2 judges \(sim\/sim-judge-a, sim\/sim-judge-b\), median of their scores/,
    );
    expect(evaluated2.stdout).toMatch(/agreement \(Krippendorff's alpha, ordinal\): (\d\.\d\d|n\/a)/);
  }, 240_000);

  it('a single built-in judge answers the checklist item by item into judge-scores.json', async () => {
    const file = join(project, 'experiments', 'judge-panel', 'experiment.yaml');
    const config = parse(await readFile(file, 'utf8'));
    config.name = 'single-judge';
    config.models.judge = { provider: 'sim', temperature: 0 };
    const dir = join(project, 'experiments', 'single-judge');
    await cp(join(project, 'experiments', 'judge-panel'), dir, { recursive: true });
    await writeFile(join(dir, 'experiment.yaml'), stringify(config));
    const result = await runBuiltCli(['eval', 'single-judge', '--json'], { cwd: project, env: env() });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.judgePanel).toBeUndefined();
    const scores = JSON.parse(
      await readFile(
        join(report.runDir, 'iterations', '0000', 'candidates', '0', 'judge-scores.json'),
        'utf8',
      ),
    );
    for (const output of scores.per_output) {
      const answers: { item: string; met: boolean }[] = output.items.essentials;
      expect(answers.map((a) => a.item)).toEqual([
        'Has a subject line',
        'Names a concrete problem the reader has',
        'Ends with a question the reader can answer yes or no',
      ]);
      const met = answers.filter((a) => a.met).length;
      expect(output.criteria_scores.essentials).toBe(1 + Math.round((4 * met) / 3));
    }
  }, 120_000);
});

/** The page's iteration table has an Alpha column; the baseline's detail names the panel and its members' scores. */
async function expectReportShowsAlpha(file: string, baselineAlpha: number | null): Promise<void> {
  const context = await chromium.launchPersistentContext(join(project, 'profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.locator('tr.row').first().waitFor();
    const head = await page.locator('table.iter thead th').allTextContents();
    expect(head).toContain('Alpha');
    const column = head.indexOf('Alpha');
    const row = page.locator('tr.row[data-iteration="0"]');
    expect(await row.locator('td').nth(column).textContent()).toBe(
      baselineAlpha === null ? 'n/a' : baselineAlpha.toFixed(2),
    );
    await row.click();
    const detail = page.locator('#detail-0');
    await detail.waitFor();
    const facts = await detail.locator('dt').allTextContents();
    expect(facts).toContain('Judge panel');
    const panel = await detail.locator('dd', { hasText: "Krippendorff's alpha" }).textContent();
    expect(panel).toContain('2 judges (sim/sim-judge-a, sim/sim-judge-b), median of their scores');
    expect(panel).toContain('essentials α');
    // Each output shows every member's own scores under the panel's.
    expect(await detail.locator('span.chip', { hasText: 'sim/sim-judge-b' }).count()).toBe(5);
  } finally {
    await context.close();
  }
}
