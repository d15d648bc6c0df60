/** The response cache folder: what one run wrote, a resumed run finds; damage reads as a miss. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CachedCompletion, cacheFilePath, createFileCache } from '../../../src/providers/cache.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const entry = (text: string): CachedCompletion => ({
  v: 1,
  provider: 'sim',
  model: 'sim-model',
  text,
  usage: { inputTokens: 3, outputTokens: 4 },
  costUsd: null,
});
const KEY_A = `aa${'0'.repeat(62)}`;
const KEY_B = `ab${'1'.repeat(62)}`;

const root = useTempDir('file-cache-');

describe('createFileCache', () => {
  it('misses in a folder that does not exist yet, then finds what it wrote', async () => {
    const cache = createFileCache(join(root(), 'cache'));
    expect(await cache.get(KEY_A)).toBeUndefined();
    await cache.put(KEY_A, entry('first'));
    expect(await cache.get(KEY_A)).toEqual(entry('first'));
    expect(await cache.get(KEY_B)).toBeUndefined();
  });

  it('finds in a new instance (a resumed run) every entry an earlier one wrote', async () => {
    const dir = join(root(), 'cache');
    const first = createFileCache(dir);
    await first.put(KEY_A, entry('a'));
    await first.put(KEY_B, entry('b'));
    const resumed = createFileCache(dir);
    expect(await resumed.get(KEY_A)).toEqual(entry('a'));
    expect(await resumed.get(KEY_B)).toEqual(entry('b'));
  });

  it('reads a damaged or foreign entry as a miss, and a fresh answer replaces it', async () => {
    const dir = join(root(), 'cache');
    await mkdir(join(dir, 'aa'), { recursive: true });
    await writeFile(cacheFilePath(dir, KEY_A), '{"v":1,"provider":"sim","te');
    const cache = createFileCache(dir);
    expect(await cache.get(KEY_A)).toBeUndefined();
    await cache.put(KEY_A, entry('fresh'));
    expect(await cache.get(KEY_A)).toEqual(entry('fresh'));
    await writeFile(cacheFilePath(dir, KEY_A), JSON.stringify({ ...entry('x'), v: 2 }));
    expect(await createFileCache(dir).get(KEY_A)).toBeUndefined();
  });

  it("keeps an entry's tool calls, and reads tool calls of the wrong shape as a miss", async () => {
    const dir = join(root(), 'cache');
    const withCalls = { ...entry(''), toolCalls: [{ id: 't1', name: 'lookup', arguments: { n: 1 } }] };
    await createFileCache(dir).put(KEY_A, withCalls);
    expect(await createFileCache(dir).get(KEY_A)).toEqual(withCalls);
    const broken = { ...withCalls, toolCalls: [{ id: 't1', name: 'lookup', arguments: '{"n":1}' }] };
    await writeFile(cacheFilePath(dir, KEY_A), JSON.stringify(broken));
    expect(await createFileCache(dir).get(KEY_A)).toBeUndefined();
  });
});
