/**
 * What both loopback proxies (the judge's model proxy, src/sandbox/model-proxy.ts, and an agent's
 * pass-through, src/agent/cli/agent-proxy.ts) read of a request the same way: the key it presents,
 * compared with the one-time token in constant time, and its body, refused past a bound; and
 * where a proxy listens.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request body larger than this is refused: no real model request comes near it. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The key as the SDKs and CLIs send it: `x-api-key` (Anthropic) or a bearer token (OpenAI). */
export function presentedKey(req: IncomingMessage): string | undefined {
  const xKey = req.headers['x-api-key'];
  if (typeof xKey === 'string' && xKey !== '') return xKey;
  const auth = req.headers['authorization'];
  return typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The whole body, or undefined when it is larger than MAX_BODY_BYTES. */
export function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Starts `server` on a loopback port, or on the unix socket a sandbox's relay forwards to, and
 * resolves with the URL the program is given.
 */
export async function listenOnLoopback(
  server: Server,
  unixSocket: { path: string; relayUrl: string } | undefined,
): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (unixSocket === undefined) server.listen(0, '127.0.0.1', () => resolve());
    else server.listen(unixSocket.path, () => resolve());
  });
  return unixSocket === undefined
    ? `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    : unixSocket.relayUrl;
}
