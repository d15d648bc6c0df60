/**
 * A module loaded the first time it is used rather than when its importer loads: for Node
 * built-ins and packages that only some paths of a command need (crypto for the lock and
 * digests, https for remote providers, ajv for JSON-schema checks). Start-up time is paid by
 * every command, the judge and grader subprocesses included (BENCHMARKS.md, benchmark 6).
 *
 * A synchronous require, so callers stay synchronous; in the bundle `require` is Node's own,
 * which loads a built-in without building an ES-module view of it.
 */
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireHere(id) as T;
    return loaded;
  };
}

/** node:crypto on first use: digests and lock tokens; `show` and `runs` compute neither. */
export const lazyCrypto = lazyRequire<typeof import('node:crypto')>('node:crypto');
