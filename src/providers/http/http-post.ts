/**
 * The transport under postJson: one POST over node:http or node:https, the whole body read as
 * text.
 *
 * Not fetch, because every judge and grader subprocess makes its calls through this module and
 * Node's fetch (undici) is expensive in a short-lived process: loading it is slow, and its
 * WebAssembly HTTP parser is recompiled in the background after the first response, which
 * holds the process's exit. node:http is part of Node's start-up snapshot and parses in C.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What postJson needs of response headers (a fetch `Headers` has the same shape). */
export interface HeaderReader {
  get(name: string): string | null;
}

export interface HttpAnswer {
  status: number;
  headers: HeaderReader;
  /** The whole body; rejects when the connection drops before its end. */
  text(): Promise<string>;
}

export interface HttpPostOptions {
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/** A request that failed before any response arrived, with the system's error code. */
export class ConnectError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

function headerReader(headers: IncomingHttpHeaders): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function readBody(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    response.on('error', reject);
    // A connection that closes before the body's end (a cut response, an abort) ends here.
    response.on('close', () => {
      if (!ended) reject(new Error('the connection closed before the response ended'));
    });
  });
}

export function httpPost(url: string, options: HttpPostOptions): Promise<HttpAnswer> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = Buffer.from(options.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(body.length) },
        signal: options.signal,
      },
      (response) => {
        const text = readBody(response);
        // Read eagerly so a body nobody asks for still drains; a failure surfaces on text().
        text.catch(() => undefined);
        resolve({
          status: response.statusCode ?? 0,
          headers: headerReader(response.headers),
          text: () => text,
        });
      },
    );
    req.on('error', (error) => reject(new ConnectError(error)));
    req.end(body);
  });
}
