/**
 * The report in a real browser: Debian's Chromium at /usr/bin/chromium driven by
 * playwright-core (never a downloaded browser), the page opened from file:// as a person
 * would. Checks the chart, an iteration's detail, that hostile output stays text and runs
 * nothing, that the page asks for nothing over the network, and saves a screenshot to
 * test-artifacts/report.png. A paired run (docs/design/paired-acceptance.md) adds interval whiskers
 * and per-case churn (screenshot test-artifacts/report-paired.png).
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveReport } from '../../src/report/serve-report.js';
import { compareRuns } from '../../src/report/compare-runs.js';
import { readRunSide } from '../../src/report/read-run-side.js';
import { renderAndWriteReport, writeReport } from '../../src/report/write-report.js';
import { stampEvent } from '../../src/run/events.js';
import { HOSTILE_IMG, HOSTILE_SCRIPT, writeFixtureRun } from '../helpers/fixture-run.js';
import { cleanUpScriptedRuns } from '../helpers/loop-harness.js';
import { runPairedScenario } from '../helpers/paired-run.js';

const CHROMIUM = '/usr/bin/chromium';
const root = fileURLToPath(new URL('../..', import.meta.url));
const screenshot = join(root, 'test-artifacts', 'report.png');
let tempDir: string;
let reportUrl: string;
let pairedUrl: string;
let besideUrl: string;
let besideIds: { a: string; b: string };
let context: BrowserContext;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. Install Debian's package: ` +
        '`apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium` (CI does this in .ci/run).',
    );
  }
  tempDir = await mkdtemp(join(tmpdir(), 'ar-report-browser-'));
  const run = await writeFixtureRun(join(tempDir, 'runs'));
  reportUrl = pathToFileURL(await writeReport(run.dir)).href;
  const paired = (await runPairedScenario()).runDir;
  pairedUrl = pathToFileURL(await writeReport(paired)).href;
  // `report <paired> --beside <shorter>`: the same scenario stopped after its screened-out first
  // proposal, so its best is still the baseline, as `compare` reads the two.
  const shorter = (await runPairedScenario(1)).runDir;
  const sides = await Promise.all([
    readRunSide(dirname(paired), basename(paired)),
    readRunSide(dirname(shorter), basename(shorter)),
  ]);
  const beside = await renderAndWriteReport(paired, { beside: compareRuns(...sides) });
  besideUrl = pathToFileURL(beside.file).href;
  besideIds = { a: basename(paired), b: basename(shorter) };
  context = await chromium.launchPersistentContext(join(tempDir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 120_000);
afterAll(async () => {
  await context?.close();
  if (tempDir) await rm(tempDir, { recursive: true, force: true });
  await cleanUpScriptedRuns();
});

interface Watched {
  page: Page;
  dialogs: string[];
  problems: string[];
  requests: string[];
}

async function open(url = reportUrl): Promise<Watched> {
  const page = await context.newPage();
  const watched: Watched = { page, dialogs: [], problems: [], requests: [] };
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watched.problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') watched.problems.push(message.text());
  });
  page.on('request', (request) => {
    if (!request.url().startsWith('file://')) watched.requests.push(request.url());
  });
  await page.route(/^(?!file:)/, async (route) => {
    watched.requests.push(route.request().url());
    await route.abort();
  });
  await page.goto(url);
  return watched;
}

describe('report.html in Chromium', () => {
  it('draws the chart, opens an iteration with its diff and outputs, and shows hostile output as text', async () => {
    const { page, dialogs, problems } = await open();
    await expect.poll(() => page.locator('h1').textContent()).toBe('cold-email');

    const points = page.locator('svg.chart circle.pt');
    expect(await points.count()).toBe(8);
    expect(await points.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-iteration')))).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(await page.locator('svg.chart circle.pt.unscored').count()).toBe(2);
    expect(await page.locator('tr.row').count()).toBe(8);

    await page.locator('tr.row[data-iteration="5"]').click();
    const detail = page.locator('#detail-5');
    await detail.waitFor();
    const diff = detail.locator('pre.diff');
    expect(await diff.isVisible()).toBe(true);
    // A keep's message is its decision, shown once, and never under "Error".
    expect(await detail.locator('dt').allTextContents()).not.toContain('Error');
    expect(await detail.locator('dt').allTextContents()).toContain('Decision');
    expect(await diff.locator('span.add').allTextContents()).toEqual([
      '+ End with one question proposing a 15-minute call next Tuesday.',
    ]);
    expect(await detail.locator('h3', { hasText: 'Prompt change against iteration 1' }).count()).toBe(1);
    const outputs = detail.locator('pre.output');
    expect(await outputs.count()).toBe(3);
    expect(await outputs.first().isVisible()).toBe(true);
    // Each case is labelled with its split; the holdout one stands out.
    expect(await detail.locator('details.case summary .tag').allTextContents()).toEqual([
      'train',
      'holdout',
      'train',
    ]);
    expect(await detail.locator('details.case summary .tag.holdout').count()).toBe(1);
    const hostile = (await outputs.first().textContent()) ?? '';
    expect(hostile).toContain(HOSTILE_SCRIPT);
    expect(hostile).toContain(HOSTILE_IMG);
    expect(await detail.textContent()).toContain('</script><b>bold</b>');
    expect(await detail.locator('ul.checks li').count()).toBe(12);
    expect(await detail.locator('ul.verdicts li', { hasText: 'Ends with a question' }).count()).toBe(1);
    expect(await detail.locator('blockquote', { hasText: 'Contains stray markup' }).count()).toBe(1);

    // Nothing from the run became markup, and nothing ran.
    expect(await page.locator('img, b, iframe, object, embed').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);

    // The error iteration says what failed.
    await page.locator('tr.row[data-iteration="4"]').click();
    const failed = page.locator('#detail-4');
    await failed.waitFor();
    expect(await failed.locator('dt', { hasText: 'Error' }).count()).toBe(1);
    expect(await failed.locator('dd', { hasText: 'judge_error' }).count()).toBe(1);

    // A chart point opens its iteration too.
    await points.nth(7).click();
    await page.locator('#detail-7').waitFor();
    expect(await page.locator('#detail-7 .verdicts li', { hasText: 'Flagged' }).count()).toBe(1);

    const copy = page.locator('#best button.copy');
    await copy.click();
    await expect.poll(() => copy.textContent()).not.toBe('Copy');

    await page.locator('tr.row[data-iteration="7"]').click();
    await mkdir(join(root, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    await page.close();
  });

  it('leads the cards with the sealed test split when the final evaluation scored one', async () => {
    const run = await writeFixtureRun(join(tempDir, 'runs-sealed'));
    const final = stampEvent(
      {
        type: 'final_evaluation',
        baseline: { train: 0.429, holdout: 0.433, test: 0.4 },
        best: { iteration: 5, train: 0.922, holdout: 0.927, test: 0.85 },
      },
      new Date('2026-11-29T22:40:00.000Z'),
    );
    await appendFile(join(run.dir, 'events.jsonl'), `${JSON.stringify(final)}\n`);
    const page = await context.newPage();
    await page.goto(pathToFileURL(await writeReport(run.dir)).href);
    const cards = page.locator('.cards .card');
    expect((await cards.locator('.label').allTextContents()).slice(0, 3)).toEqual([
      'Test score (sealed)',
      'Train score',
      'Holdout score',
    ]);
    expect(await cards.first().locator('.value').textContent()).toBe('0.400 → 0.850');
    expect(await cards.first().locator('.sub').textContent()).toContain(
      'scored only by the final evaluation',
    );
    await page.close();
  });

  it('gives a judge that drifted beyond its noise a warning card, and lists the warning (docs/design/judge-reliability.md)', async () => {
    const run = await writeFixtureRun(join(tempDir, 'runs-drift'));
    const at = new Date('2026-11-29T22:40:00.000Z');
    const anchors = (now: number) => ['a', 'b'].map((caseId) => ({ caseId, sample: 0, baseline: 0.5, now }));
    const events = [
      stampEvent(
        { type: 'judge_noise', iteration: 0, anchors: anchors(0.5), noise: 0, decisionNoise: null },
        at,
      ),
      stampEvent(
        {
          type: 'judge_drift',
          iteration: 6,
          baseline: 0,
          anchors: anchors(0.75),
          mean: 0.25,
          lo: 0.25,
          hi: 0.25,
          band: 0,
          beyondNoise: true,
        },
        at,
      ),
      stampEvent({ type: 'warning', iteration: 6, message: 'judge drift: the anchors moved' }, at),
    ];
    await appendFile(join(run.dir, 'events.jsonl'), events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const page = await context.newPage();
    await page.goto(pathToFileURL(await writeReport(run.dir)).href);
    const card = page.locator('.cards .card.warn');
    expect(await card.locator('.label').textContent()).toBe('Judge drift');
    expect(await card.locator('.value').textContent()).toBe('+0.250');
    expect(await card.locator('.sub').textContent()).toContain('beyond noise at 6');
    expect(await page.locator('footer li').allTextContents()).toContain(
      'iteration 6: judge drift: the anchors moved',
    );
    await page.close();
  });

  it('makes no network request, even with every iteration open', async () => {
    const { page, requests, problems } = await open();
    for (const row of await page.locator('tr.row').all()) await row.click();
    expect(await page.locator('tr.detail').count()).toBe(8);
    await page.waitForLoadState('networkidle');
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('served with --serve, reloads itself while the run goes on', async () => {
    const live = await writeFixtureRun(join(tempDir, 'runs'), { scenario: 'sparse', running: true });
    const server = await serveReport(live.dir);
    const page = await context.newPage();
    try {
      await page.goto(server.url);
      await page.locator('.badge.live').waitFor();
      expect(await page.locator('tr.row').count()).toBe(3);
      const finished = stampEvent(
        {
          type: 'iteration_finished',
          iteration: 3,
          status: 'discard',
          candidate: 0,
          train: 0.5,
          holdout: 0.5,
          incumbentBefore: 1,
          delta: -0.5,
          hypothesis: 'Longer, warmer opening',
          promptSha256: 'b'.repeat(64),
          costUsd: 0.02,
          seconds: 30,
        },
        new Date('2026-11-28T09:17:00.000Z'),
      );
      await appendFile(join(live.dir, 'events.jsonl'), `${JSON.stringify(finished)}\n`);
      await expect.poll(() => page.locator('tr.row').count(), { timeout: 15_000 }).toBe(4);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it("draws each paired decision's interval on the chart and its per-case churn in the detail", async () => {
    const { page, problems } = await open(pairedUrl);
    await page.locator('svg.chart').waitFor();
    // Paired decisions measure noise in each interval: no "Noise margin" card that never fills in.
    expect(await page.locator('.cards .card .label').allTextContents()).not.toContain('Noise margin');
    // At a common laptop width the iterations table fits without scrolling sideways.
    await page.setViewportSize({ width: 1400, height: 900 });
    const overflow = await page
      .locator('.tablewrap')
      .first()
      .evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const whiskers = page.locator('svg.chart g.ci');
    expect(await whiskers.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('class')))).toEqual([
      'ci above',
      'ci across',
    ]);
    // The clear gain's whisker ends above the baseline it was compared with; its lines have length.
    const keep = await whiskers.first().locator('line').first().boundingBox();
    expect(keep?.height).toBeGreaterThan(5);
    expect(await page.locator('.legend', { hasText: 'interval of the paired mean difference' }).count()).toBe(
      1,
    );

    const head = await page.locator('table.iter thead th').allTextContents();
    expect(head).toEqual(expect.arrayContaining(['Interval', 'Cases']));
    const row = page.locator('tr.row[data-iteration="2"] td');
    expect(await row.allTextContents()).toEqual(expect.arrayContaining(['[+0.139, +0.528]', '3▲ 0▼ 0=']));
    expect(await page.locator('tr.row[data-iteration="1"]').textContent()).toContain('minibatch −0.200');

    // A whisker opens its iteration: the inconclusive change helped Ada's case and hurt Cy's.
    await whiskers.nth(1).click();
    const detail = page.locator('#detail-3');
    await detail.waitFor();
    const train = detail.locator('.churnrow', { hasText: 'train' }).locator('.mk');
    expect(await train.allTextContents()).toEqual(['▲', '=', '▼']);
    expect(await train.first().getAttribute('title')).toBe('t1: 0.600 → 0.800 (+0.200)');
    expect(await detail.locator('.churnlist.up').textContent()).toBe('▲better on: t1 (+0.200)');
    expect(await detail.locator('.churnlist.down').textContent()).toBe('▼worse on: t3 (−0.200)');
    expect(await detail.locator('dd', { hasText: 'one-sided 95% bounds' }).textContent()).toContain(
      'decided on the second look',
    );

    await page.locator('tr.row[data-iteration="1"]').click();
    expect(await page.locator('#detail-1 dd', { hasText: 'calls saved' }).textContent()).toContain(
      'minibatch −0.200 on 2 train cases',
    );
    expect(problems).toEqual([]);
    await mkdir(join(root, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-artifacts', 'report-paired.png'), fullPage: true });
    await page.close();
  });

  it('opens a run beside another (report --beside): both headlines, each case under each best, the prompts diff', async () => {
    expect(besideUrl).toMatch(new RegExp(`/beside-${besideIds.b}\\.html$`));
    const { page, problems } = await open(besideUrl);
    const beside = page.locator('#beside');
    await beside.waitFor();
    expect(await beside.locator('h2').textContent()).toBe(`Beside run ${besideIds.b}`);
    const run = beside.locator('table.beside-headlines tbody tr').first();
    expect(await run.locator('td').allTextContents()).toEqual([besideIds.a, besideIds.b]);
    expect(await run.locator('th').textContent()).toBe('Run');
    const kept = beside.locator('table.beside-headlines tbody tr', {
      has: page.locator('th', { hasText: /^Iterations$/ }),
    });
    expect(await kept.locator('td').allTextContents()).toEqual(['3, 1 kept', '1, 0 kept']);
    // Every case under each run's best, and the paired verdict over them.
    const rows = beside.locator('table.beside-cases tbody tr');
    expect(await rows.count()).toBeGreaterThan(1);
    expect(await beside.locator('p.beside-verdict').textContent()).toMatch(
      /^B − A .* over \d+ cases \(paired, 95%\)/,
    );
    // The kept change is the difference between the two best prompts.
    expect(await beside.locator('pre.diff span.remove').allTextContents()).not.toEqual([]);
    // The run's own report is still there as it was, without the comparison.
    expect(await page.locator('svg.chart').count()).toBe(1);
    const own = await open(pairedUrl);
    await own.page.locator('svg.chart').waitFor();
    expect(await own.page.locator('#beside').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(root, 'test-artifacts', 'report-beside.png'), fullPage: true });
    await page.close();
    await own.page.close();
  });
});
