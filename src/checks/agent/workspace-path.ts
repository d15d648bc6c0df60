/** A workspace path or glob as a check names it (`file:`, `file-exists`): relative and inside the workspace. */
import { normaliseWorkspacePath } from './finished-workspace.js';

/** Why `path` cannot name a file of the workspace, or undefined when it can. */
export function workspacePathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string' || path.trim() === '')
    return 'expected a path inside the workspace, e.g. RELEASE_NOTES.md';
  const normal = normaliseWorkspacePath(path);
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path))
    return `"${path}" is absolute: give a path relative to the workspace`;
  if (normal === '..' || normal.startsWith('../') || normal === '.')
    return `"${path}" is not a file inside the workspace`;
  if (normal === '.git' || normal.startsWith('.git/')) return '.git/ is not part of what the agent left';
  return undefined;
}
