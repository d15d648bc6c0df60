import type { Problem } from '../errors.js';
import type { Colors } from './terminal.js';

/** `path/to/file:line:col  key.path  message  (hint)` — one line per problem, errors first. */
export function formatProblem(problem: Problem, colors: Colors, cwd = process.cwd()): string {
  const { location } = problem;
  const file = relativeTo(location.file, cwd);
  const where = location.line === undefined ? file : `${file}:${location.line}:${location.col ?? 1}`;
  const tag = problem.severity === 'error' ? colors.red('error') : colors.yellow('warning');
  const key = problem.keyPath === '' ? '' : `  ${colors.cyan(problem.keyPath)}`;
  const hint = problem.hint ? `  ${colors.dim(`(${problem.hint})`)}` : '';
  return `${where}${key}  ${tag}: ${problem.message}${hint}`;
}

export function formatProblems(problems: readonly Problem[], colors: Colors, cwd?: string): string {
  const sorted = [...problems].sort((a, b) => severityRank(a) - severityRank(b));
  return sorted.map((p) => formatProblem(p, colors, cwd)).join('\n');
}

function severityRank(problem: Problem): number {
  return problem.severity === 'error' ? 0 : 1;
}

function relativeTo(file: string, cwd: string): string {
  if (file.startsWith(`${cwd}/`)) return file.slice(cwd.length + 1);
  return file;
}
