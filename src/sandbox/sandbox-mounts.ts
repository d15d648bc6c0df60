/**
 * What a judge or grader program is shown under `os` isolation (docs/design/isolation.md), read
 * from the host: the system directories, the few /etc files programs need (never /etc as a whole:
 * as root it would show /etc/shadow), the Node installation, this package's built CLI and its
 * dependencies and the program files its `command` names (a claude/codex CLI judge's login
 * is a private copy: cli-login-copy.ts). Never `/`, the project, the home folder or the temp
 * folder.
 */
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { Mount } from './bwrap-argv.js';

const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
const ETC_ENTRIES = [
  'alternatives',
  'ca-certificates',
  'ssl',
  'pki',
  'resolv.conf',
  'hosts',
  'host.conf',
  'nsswitch.conf',
  'gai.conf',
  'passwd',
  'group',
  'localtime',
  'timezone',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'mime.types',
  'os-release',
];

export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Already visible through the system binds. */
function isSystemPath(path: string): boolean {
  return ['/usr', '/etc'].some((dir) => isInside(path, dir));
}

function roBind(path: string): Mount {
  return { kind: 'ro', source: path, dest: path };
}

export function systemMounts(): Mount[] {
  const mounts: Mount[] = [];
  for (const dir of SYSTEM_DIRS) {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    // Merged-/usr systems make /bin a link to usr/bin: the same link inside.
    if (stat.isSymbolicLink()) mounts.push({ kind: 'symlink', target: readlinkSync(dir), path: dir });
    else if (stat.isDirectory()) mounts.push(roBind(dir));
  }
  for (const entry of ETC_ENTRIES) {
    const path = join('/etc', entry);
    if (existsSync(path)) mounts.push(roBind(path));
  }
  return mounts;
}

/** The Node installation the runner itself runs on (the built-in judge and the relay use it). */
export function nodeMounts(execPath: string = process.execPath): Mount[] {
  const real = realpathSync(execPath);
  const mounts: Mount[] = [];
  // <prefix>/bin/node: the prefix holds its libraries too (nvm, tarball installs).
  const prefix = dirname(dirname(real));
  if (!isSystemPath(real)) mounts.push(roBind(prefix));
  if (real !== execPath && !isSystemPath(execPath)) {
    mounts.push({ kind: 'ro', source: real, dest: execPath });
  }
  return mounts;
}

/**
 * This package's built CLI and what it imports. The whole package when it stands apart from
 * the project (an install); only dist/, package.json and node_modules/ when the project is
 * inside it (the package running its own demo), so no project file comes along. A package
 * installed inside a project's node_modules gets that node_modules folder (its dependencies
 * are hoisted beside it), which holds libraries, not the user's files.
 */
export function packageMounts(packageRoot: string, projectDir: string): Mount[] {
  const parent = dirname(packageRoot);
  const hoisted = parent.split(sep).includes('node_modules')
    ? parent.slice(0, parent.lastIndexOf('node_modules') + 'node_modules'.length)
    : undefined;
  if (hoisted !== undefined && !isInside(projectDir, hoisted)) return [roBind(hoisted)];
  // Entry by entry, each from its real path: a linked node_modules (a workspace, a shared
  // install, a test's copy of the build) then resolves inside as it does outside.
  const names = isInside(projectDir, packageRoot)
    ? ['dist', 'package.json', 'node_modules']
    : readdirSync(packageRoot);
  return names
    .map((name) => join(packageRoot, name))
    .filter((path) => existsSync(path))
    .map((path) => ({ kind: 'ro', source: realpathSync(path), dest: path }));
}

/** Finds a bare program name on PATH, as the sandbox's PATH would. */
function onPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return undefined;
}

/**
 * The files a `command` names (its program and scripts, already absolute: see
 * resolve-program-argv.ts), each bound alone at its own path; never a folder.
 */
export function programMounts(argv: readonly string[], pathVar?: string): Mount[] {
  const mounts: Mount[] = [];
  const seen = new Set<string>();
  const add = (path: string, source: string = path) => {
    if (seen.has(path) || isSystemPath(path)) return;
    seen.add(path);
    mounts.push({ kind: 'ro', source, dest: path });
  };
  argv.forEach((arg, index) => {
    const path = index === 0 && !arg.includes('/') ? onPath(arg, pathVar) : arg;
    if (path === undefined || !isAbsolute(path) || !existsSync(path)) return;
    const real = realpathSync(path);
    // A folder is never mounted: it could be the project, or hold what the judge must not see.
    if (!statSync(real).isFile()) return;
    add(path, real);
    // A program reached through a link (~/.local/bin/claude → its versions folder) runs from there.
    if (real !== path) add(real);
  });
  return mounts;
}
