/** Types of pinned-clis.js (plain JavaScript so `.ci/run` can run it before the gate); see its header. */
export type PinnedCliName = 'claude' | 'codex';

export const PINNED_CLIS: Record<PinnedCliName, { package: string; version: string; bin: string }>;

export function cliCacheDir(): string;

/** The installed binary's path, or undefined when this version is not in the cache. */
export function cachedCli(name: PinnedCliName): string | undefined;

/** The pinned CLI's binary, installed from the npm registry first when it is not cached. */
export function pinnedCli(name: PinnedCliName): string;
