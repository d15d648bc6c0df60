/**
 * `report --serve`: a real HTTP server on 127.0.0.1 (random port) that serves the report
 * read-only, regenerates it when the journal moves on, answers a tiny status endpoint, and
 * refuses everything else. The CLI case needs `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveReport, type ReportServer } from '../../src/report/serve-report.js';
import { stampEvent, type RunEvent } from '../../src/run/events.js';
import { writeFixtureRun, type FixtureRun } from '../helpers/fixture-run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist/cli/main.js');
let runsDir: string;
let run: FixtureRun;
let server: ReportServer;

beforeAll(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'ar-report-serve-'));
  run = await writeFixtureRun(runsDir, { scenario: 'sparse', running: true });
  server = await serveReport(run.dir);
});
afterAll(async () => {
  await server?.close();
  if (runsDir) await rm(runsDir, { recursive: true, force: true });
});

function embeddedData(html: string): { stamp: string; iterations: { iteration: number; status: string }[] } {
  const block = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return JSON.parse(block ?? 'null');
}

function rawRequest(options: {
  method?: string;
  path?: string;
  host?: string;
}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.host ? { host: options.host } : {},
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('serveReport', () => {
  it('serves the report on 127.0.0.1 with a status stamp that matches the page', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    const status = await (await fetch(new URL('status.json', server.url))).json();
    expect(status).toEqual({ stamp: embeddedData(html).stamp });
    expect(await readFile(join(run.dir, 'report.html'), 'utf8')).toBe(html);
  });

  it('regenerates the page when the journal moves on', async () => {
    const before = embeddedData(await (await fetch(server.url)).text());
    const finished: RunEvent = stampEvent(
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
    ) as RunEvent;
    await appendFile(join(run.dir, 'events.jsonl'), `${JSON.stringify(finished)}\n`);
    const status = (await (await fetch(new URL('status.json', server.url))).json()) as { stamp: string };
    expect(status.stamp).not.toBe(before.stamp);
    const after = embeddedData(await (await fetch(new URL('report.html', server.url))).text());
    expect(after.stamp).toBe(status.stamp);
    expect(after.iterations.map((i) => i.status)).toEqual([
      ...before.iterations.map((i) => i.status),
      'discard',
    ]);
  });

  it('is read-only, serves nothing else and only answers for its own address', async () => {
    expect((await rawRequest({ method: 'POST' })).status).toBe(405);
    expect((await rawRequest({ method: 'DELETE', path: '/report.html' })).status).toBe(405);
    expect((await rawRequest({ path: '/../events.jsonl' })).status).toBe(404);
    expect((await rawRequest({ path: '/manifest.json' })).status).toBe(404);
    expect((await rawRequest({ host: 'evil.example' })).status).toBe(403);
    expect((await rawRequest({ host: `localhost:${server.port}` })).status).toBe(200);
    expect((await rawRequest({ method: 'HEAD' })).body).toBe('');
  });
});

describe('autoresearch report --serve', () => {
  it('prints the URL, serves the page and stops on Ctrl-C with exit 0', async () => {
    if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');
    const env: NodeJS.ProcessEnv = { ...process.env, AUTORESEARCH_RUNS_DIR: runsDir, NO_COLOR: '1' };
    const child = spawn(process.execPath, [cli, 'report', run.id, '--serve'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const line = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout! }).once('line', resolve),
      );
      const url = /^Serving the report of \S+ at (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(line)?.[1];
      expect(url).toBeDefined();
      const page = await fetch(url!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('id="report-data"');
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
