import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportData } from '../../../src/report/build-report-data.js';
import { embedJson } from '../../../src/report/embed-json.js';
import { readRunFolder } from '../../../src/report/read-run-folder.js';
import type { ReportData } from '../../../src/report/report-data.js';
import { readPageAssets } from '../../../src/report/page-assets.js';
import { contentSecurityPolicy, escapeHtml, renderReportHtml } from '../../../src/report/render-html.js';
import { HOSTILE_IMG, HOSTILE_SCRIPT, writeFixtureRun } from '../../helpers/fixture-run.js';

const REPORT_SCRIPT = readPageAssets().script;
let runsDir: string;
let data: ReportData;
let html: string;

beforeAll(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'ar-render-'));
  const run = await writeFixtureRun(runsDir);
  data = buildReportData(await readRunFolder(run.dir), {
    now: new Date('2026-11-30T07:00:00Z'),
    toolVersion: '0.1.0',
  });
  html = renderReportHtml(data);
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

describe('embedJson', () => {
  it('never lets a closing tag or comment out of the JSON block, and parses back to the same value', () => {
    const value = { text: `${HOSTILE_SCRIPT} <!-- x --> \u2028 ${HOSTILE_IMG}` };
    const embedded = embedJson(value);
    expect(embedded).not.toContain('<');
    expect(JSON.parse(embedded)).toEqual(value);
  });
});

describe('renderReportHtml', () => {
  it('holds exactly two script elements: the inert data block and the page script', () => {
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script>/gi)).toHaveLength(2);
    expect(html).not.toContain(HOSTILE_SCRIPT);
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/<b>bold<\/b>/);
  });

  it('inlines the whole model, recoverable byte for byte', () => {
    const block = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(block ?? '')).toEqual(JSON.parse(JSON.stringify(data)));
  });

  it('references nothing outside the file', () => {
    // Run data inside the inert JSON block may say anything; the markup, style and script around it may not.
    const page = html.replace(/<script type="application\/json" id="report-data">[\s\S]*?<\/script>/, '');
    expect(page).not.toMatch(/\b(src|href)\s*=/i);
    expect(page).not.toMatch(/@import|url\(/i);
    expect(page).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('admits only its own script through the Content-Security-Policy', () => {
    const hash = createHash('sha256').update(REPORT_SCRIPT).digest('base64');
    expect(contentSecurityPolicy()).toContain(`script-src 'sha256-${hash}'`);
    expect(contentSecurityPolicy()).toContain("default-src 'none'");
    expect(html).toContain(`<script>${REPORT_SCRIPT}</script>`);
    expect(() => new Function(REPORT_SCRIPT)).not.toThrow();
  });

  it('escapes the title', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
    expect(html).toContain('<title>cold-email · 20261129-2230-cold-email-k3f9 · autoresearch report</title>');
  });
});
