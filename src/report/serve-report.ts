/**
 * `report --serve`: the report over HTTP on 127.0.0.1 only, read-only. GET / regenerates the
 * page when the journal moved on since the last render (and writes report.html too); the page
 * polls GET /status.json and reloads itself when the stamp changes. Nothing else is served,
 * and requests naming another host are refused (a web page elsewhere cannot read it through
 * DNS rebinding).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AutoresearchError } from '../errors.js';
import { readJournal } from '../run/journal.js';
import { readLockStatus } from '../run/lock.js';
import { journalStamp } from './build-report-data.js';
import { contentSecurityPolicy } from './render-html.js';
import { renderAndWriteReport } from './write-report.js';

export const REPORT_HOST = '127.0.0.1';

export interface ReportServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** 0 (the default) picks any free port. */
  port?: number;
  now?: () => Date;
}

export async function serveReport(runDir: string, options: ServeOptions = {}): Promise<ReportServer> {
  let cached: { html: string; stamp: string } | null = null;
  let rendering: Promise<{ html: string; stamp: string }> | null = null;

  const currentStamp = async (): Promise<string> => {
    const [journal, lock] = await Promise.all([
      readJournal(runDir, { onInvalid: 'collect' }),
      readLockStatus(runDir),
    ]);
    return journalStamp(journal.events.length, journal.events.at(-1)?.at ?? null, lock.state === 'held');
  };
  const page = async (): Promise<string> => {
    const stamp = await currentStamp();
    if (cached && cached.stamp === stamp) return cached.html;
    // Concurrent requests share one render.
    rendering ??= renderAndWriteReport(runDir, options.now ? { now: options.now } : {}).finally(() => {
      rendering = null;
    });
    cached = await rendering;
    return cached.html;
  };

  let port = 0;
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(
        response,
        500,
        'text/plain; charset=utf-8',
        `could not render the report: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  });
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const host = request.headers.host ?? '';
    if (host !== `${REPORT_HOST}:${port}` && host !== `localhost:${port}`) {
      send(
        response,
        403,
        'text/plain; charset=utf-8',
        'this server only answers requests for its own address\n',
      );
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      send(response, 405, 'text/plain; charset=utf-8', 'read-only: only GET and HEAD are served\n');
      return;
    }
    const path = new URL(request.url ?? '/', `http://${REPORT_HOST}`).pathname;
    if (path === '/' || path === '/report.html') {
      send(response, 200, 'text/html; charset=utf-8', await page(), request.method === 'HEAD');
    } else if (path === '/status.json') {
      send(
        response,
        200,
        'application/json',
        `${JSON.stringify({ stamp: await currentStamp() })}\n`,
        request.method === 'HEAD',
      );
    } else {
      send(response, 404, 'text/plain; charset=utf-8', 'not found: the report is at /\n');
    }
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new AutoresearchError('E_USAGE', `port ${options.port} on ${REPORT_HOST} is already in use`, {
              hint: 'pick another with --port, or leave --port out to use any free port',
            })
          : error,
      );
    });
    server.listen(options.port ?? 0, REPORT_HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${REPORT_HOST}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function send(response: ServerResponse, status: number, type: string, body: string, headOnly = false): void {
  response.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': contentSecurityPolicy(),
  });
  response.end(headOnly ? undefined : body);
}
