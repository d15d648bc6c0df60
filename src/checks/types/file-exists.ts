/**
 * `file-exists` (docs/design/checks.md "Checks on an agent's files and actions"): the path in
 * `value` exists in the workspace the agent left — one of its fixtures it did not delete, or a
 * file it made. A glob passes when at least one path matches. `not-file-exists`: it must not
 * (never made, or deleted).
 */
import { isGlob, normaliseWorkspacePath } from '../agent/finished-workspace.js';
import { workspacePathProblem } from '../agent/workspace-path.js';
import type { CheckDefinition } from '../check-definition.js';
import { errored, failed, passed } from '../check-result.js';
import { quote, shorten } from '../check-values.js';

export const fileExistsCheck: CheckDefinition = {
  subject: 'workspace',
  validate(entry) {
    const problem = workspacePathProblem(entry.value);
    return problem === undefined
      ? []
      : [
          {
            keyPath: 'value',
            message: `file-exists needs a workspace path: ${problem}`,
            hint: 'e.g. { type: file-exists, value: RELEASE_NOTES.md }',
          },
        ];
  },
  describe(entry) {
    return shorten(String(entry.value ?? ''));
  },
  async run(_output, entry, context) {
    if (context.agent === undefined) return errored('file-exists reads an agent case’s workspace');
    const pattern = String(entry.value);
    if (isGlob(pattern)) {
      const paths = await context.agent.workspace.match(pattern);
      return paths.length === 0
        ? failed(`no file matches ${quote(pattern)}`)
        : passed(`${paths.length} file(s) match ${quote(pattern)}: ${shorten(paths.join(', '), 80)}`);
    }
    const path = normaliseWorkspacePath(pattern);
    const file = await context.agent.workspace.read(path);
    if (file.state !== 'missing') return passed(`${path} exists`);
    return failed(file.deleted ? `${path} was deleted by the agent` : `${path} does not exist`);
  },
};
