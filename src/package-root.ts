/**
 * The package's own folder (where its package.json says `"name": "autoresearch"`), found by
 * walking up from this module: the same code runs from src/ under vitest and from dist/ as
 * compiled.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageManifest {
  name?: unknown;
  version?: unknown;
}

function readManifest(dir: string): PackageManifest | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
  } catch {
    return undefined;
  }
}

let found: { root: string; version: string } | undefined;

function locate(): { root: string; version: string } {
  if (found) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = readManifest(dir);
    if (manifest?.name === 'autoresearch') {
      found = { root: dir, version: String(manifest.version) };
      return found;
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the autoresearch package root above ${start}`);
  }
}

export function findPackageRoot(): string {
  return locate().root;
}

export function packageVersion(): string {
  return locate().version;
}
