/**
 * A pareto run's report (docs/design/pareto-search.md) in a real browser: Debian's Chromium at
 * /usr/bin/chromium driven by playwright-core, the page opened from file://. Checks the lineage
 * tree (members under their parents, the merge joined to both, best and front marked, a click
 * showing a member), the case × member heat map (cells, leaders), the merges card, the lineage
 * column and each iteration's candidates, and that a greedy run's report has none of it. Saves
 * test-artifacts/report-pool.png.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../src/report/write-report.js';
import { writePoolRun } from '../helpers/fixture-pool.js';
import { writeFixtureRun } from '../helpers/fixture-run.js';

const CHROMIUM = '/usr/bin/chromium';
/** The page's window, as far as these checks read it (the tests compile without the DOM's types). */
type Styled = { getComputedStyle(node: unknown): { backgroundColor: string } };
const root = fileURLToPath(new URL('../..', import.meta.url));
let tempDir: string;
let poolUrl: string;
let greedyUrl: string;
let context: BrowserContext;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. Install Debian's package: ` +
        '`apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium` (CI does this in .ci/run).',
    );
  }
  tempDir = await mkdtemp(join(tmpdir(), 'ar-report-pool-'));
  poolUrl = pathToFileURL(await writeReport((await writePoolRun(join(tempDir, 'runs'))).dir)).href;
  greedyUrl = pathToFileURL(await writeReport((await writeFixtureRun(join(tempDir, 'runs'))).dir)).href;
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
});

async function open(url: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  await page.route(/^(?!file:)/, async (route) => {
    requests.push(route.request().url());
    await route.abort();
  });
  await page.goto(url);
  await page.locator('h1').waitFor();
  return { page, problems, requests };
}

describe('a pareto report in Chromium', () => {
  it('draws the lineage: each member under its parent, the merge joined to both, best and front marked', async () => {
    const { page, problems, requests } = await open(poolUrl);
    const members = page.locator('svg.lineage g.member');
    expect(await members.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-member')))).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
    ]);
    expect(await members.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('class')))).toEqual([
      'member',
      'member front',
      'member',
      'member front',
      'member best front merged selected',
    ]);
    const edges = page.locator('svg.lineage path.edge');
    expect(
      await edges.evaluateAll((nodes) =>
        nodes.map(
          (n) => `${n.getAttribute('data-from')}→${n.getAttribute('data-to')} ${n.getAttribute('class')}`,
        ),
      ),
    ).toEqual(['p0→p1 edge', 'p0→p2 edge', 'p2→p3 edge', 'p1→p4 edge', 'p3→p4 edge merge']);
    // Each member sits right of its parents, the merge right of both.
    const x = async (id: string) =>
      (await page.locator(`g.member[data-member="${id}"]`).boundingBox())?.x ?? 0;
    expect(await x('p1')).toBeGreaterThan(await x('p0'));
    expect(await x('p3')).toBeGreaterThan(await x('p2'));
    expect(await x('p4')).toBeGreaterThan(await x('p3'));
    expect(await page.locator('g.member[data-member="p4"] text.marks').textContent()).toBe('★◆');

    // The best is shown first; a click shows another member's hypothesis and scores.
    const detail = page.locator('#member-detail');
    expect(await detail.locator('h3').textContent()).toBe('p4 ★◆');
    expect(await detail.textContent()).toContain('became the best');
    await members.nth(3).click();
    expect(await detail.locator('h3').textContent()).toBe('p3 ◆');
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain('Name a 15-minute slot next week');
    expect(text).toContain('train 0.725 · holdout 0.600');
    expect(text).toContain('2 of 4 train cases: t3, t4');
    expect(text).toContain('a mutation of p2 in iteration 3');
    expect(await members.nth(3).getAttribute('class')).toContain('selected');
    await detail.locator('button.link').click();
    await page.locator('#detail-3').waitFor();

    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('maps which member wins which train case', async () => {
    const { page, problems } = await open(poolUrl);
    const heat = page.locator('table.heat');
    expect(await heat.locator('thead th').allTextContents()).toEqual([
      'Train case',
      'p0',
      'p1◆',
      'p2',
      'p3◆',
      'p4★◆',
      'Led by',
    ]);
    expect(
      await heat.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-case'))),
    ).toEqual(['t1', 't2', 't3', 't4']);
    const t3 = heat.locator('tbody tr[data-case="t3"] td');
    expect(await t3.allTextContents()).toEqual(['t3', '0.500', '0.500', '0.900', '● 0.950', '0.900', 'p3']);
    expect(await heat.locator('tbody tr[data-case="t1"] td.leaders').textContent()).toBe('p1, p4');
    expect(await heat.locator('td.cell.lead').count()).toBe(5);
    // Colour follows the score: a higher score is greener (a larger hue).
    const hue = async (caseId: string, member: string) =>
      heat
        .locator(`tr[data-case="${caseId}"] td.cell[data-member="${member}"]`)
        .evaluate((n) => (globalThis as unknown as Styled).getComputedStyle(n).backgroundColor);
    expect(await hue('t3', 'p3')).not.toBe(await hue('t3', 'p0'));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('counts the merges, paints pooled, and gives each iteration its lineage and candidates', async () => {
    const { page, problems } = await open(poolUrl);
    const merges = page.locator('.cards .card', { has: page.locator('.label', { hasText: 'Merges' }) });
    expect(await merges.locator('.value').textContent()).toBe('1');
    expect(await merges.locator('.sub').textContent()).toBe('1 pooled · 1 became the best');
    expect(
      await page.locator('.cards .card', { hasText: 'Iterations' }).locator('.sub').textContent(),
    ).toContain('2 pooled');
    expect(await page.locator('.legend span', { hasText: /^pooled$/ }).count()).toBe(1);
    const pill = page.locator('tr.row[data-iteration="2"] .pill');
    expect(await pill.textContent()).toBe('pooled');
    expect(
      await pill.evaluate((n) => (globalThis as unknown as Styled).getComputedStyle(n).backgroundColor),
    ).toBe('rgb(26, 155, 176)');
    expect(await page.locator('table.iter thead th').allTextContents()).toContain('Lineage');
    expect(await page.locator('tr.row[data-iteration="4"] td.lineage').textContent()).toBe('p1 + p3 → p4');
    expect(await page.locator('tr.row[data-iteration="0"] td.lineage').textContent()).toBe('p0');

    await page.locator('tr.row[data-iteration="2"]').click();
    const detail = page.locator('#detail-2');
    await detail.waitFor();
    const rows = detail.locator('table.candidates tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual(
      expect.arrayContaining(['0', 'p0', 'pooled', 'p2', '0.675', '+0.175']),
    );
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual(
      expect.arrayContaining(['1', 'p1', 'screened out']),
    );
    expect(await detail.locator('dd', { hasText: 'from p0 → p2' }).count()).toBe(1);
    expect(await detail.locator('h3', { hasText: 'Prompt change against p0 (iteration 0)' }).count()).toBe(1);

    await page.locator('g.member[data-member="p3"]').click();
    await mkdir(join(root, 'test-artifacts'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-artifacts', 'report-pool.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows neither view in a greedy run's report", async () => {
    const { page, problems } = await open(greedyUrl);
    expect(await page.locator('tr.row').count()).toBe(8);
    expect(await page.locator('#pool, svg.lineage, table.heat, td.lineage').count()).toBe(0);
    expect(await page.locator('.cards .label', { hasText: 'Merges' }).count()).toBe(0);
    expect(await page.locator('table.iter thead th').allTextContents()).not.toContain('Lineage');
    expect(problems).toEqual([]);
    await page.close();
  });
});
