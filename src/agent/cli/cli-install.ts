/**
 * The read-only folders a CLI needs beside its own file under `os` isolation: an npm-installed
 * CLI is a launcher in `node_modules/.bin` whose code and native binary live in the packages of
 * that `node_modules` folder (Codex's `codex.js` starts `@openai/codex-linux-x64`'s binary), so
 * the install's `node_modules` is shown read-only. A CLI outside any `node_modules` (a native
 * install) needs only its file, which the sandbox binds anyway; system paths are visible already.
 */
import { realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, sep } from 'node:path';

function resolveBinary(binary: string, pathVar: string | undefined): string | undefined {
  if (binary.includes('/')) return binary;
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    try {
      if (statSync(join(dir, binary)).isFile()) return join(dir, binary);
    } catch {}
  }
  return undefined;
}

export function cliInstallFolders(binary: string, pathVar: string | undefined): string[] {
  const found = resolveBinary(binary, pathVar);
  if (found === undefined) return [];
  let real: string;
  try {
    real = realpathSync(found);
  } catch {
    return [];
  }
  const marker = `${sep}node_modules${sep}`;
  const at = real.indexOf(marker);
  if (at < 0) return [];
  const folder = real.slice(0, at + marker.length - 1);
  return folder.startsWith(`${sep}usr${sep}`) ? [] : [folder];
}
