/**
 * One output labelled twice (same case, same text): two verdicts that disagree would be averaged
 * into a judge agreement that measures the labeller, so they are an error at the second entry;
 * a repeat that agrees is a warning, since it counts that output twice.
 */
import type { Problem } from '../errors.js';
import { formatKeyPath } from '../experiment/key-path.js';
import type { Label } from './labels.js';

export function findDuplicateLabels(file: string, labels: readonly Label[]): Problem[] {
  const problems: Problem[] = [];
  const first = new Map<string, Label>();
  for (const label of labels) {
    const item = JSON.stringify([label.caseId, label.output]);
    const earlier = first.get(item);
    if (earlier === undefined) {
      first.set(item, label);
      continue;
    }
    const where = `the same ${label.caseId === null ? 'output' : `output of case \`${label.caseId}\``} as entry ${earlier.index} (line ${earlier.line})`;
    const conflicts = [
      ...Object.entries(label.scores)
        .filter(([key, score]) => earlier.scores[key] !== undefined && earlier.scores[key] !== score)
        .map(([key, score]) => ({
          path: [label.index, 'scores', key],
          said: `\`${key}\` ${score} here, ${earlier.scores[key]} there`,
        })),
      ...label.expectations
        .filter((e) => earlier.expectations.some((f) => f.text === e.text && f.pass !== e.pass))
        .map((e) => ({
          path: [label.index, 'expectations', e.text],
          said: `"${e.text}" ${e.pass ? 'pass' : 'fail'} here, ${e.pass ? 'fail' : 'pass'} there`,
        })),
    ];
    for (const conflict of conflicts)
      problems.push({
        severity: 'error',
        location: { file, line: label.line },
        keyPath: formatKeyPath(conflict.path),
        message: `entry ${label.index} labels ${where} and disagrees: ${conflict.said}`,
        hint: 'keep one verdict per output: settle it and delete the other entry',
      });
    if (conflicts.length === 0)
      problems.push({
        severity: 'warning',
        location: { file, line: label.line },
        keyPath: formatKeyPath([label.index]),
        message: `entry ${label.index} labels ${where} again, so that output counts twice`,
        hint: 'delete one of the two entries, or merge their labels into one',
      });
  }
  return problems;
}
