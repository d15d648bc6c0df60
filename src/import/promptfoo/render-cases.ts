/** cases.yaml for the imported tests: one case per test, its description as a comment. */
import { stringify } from 'yaml';
import type { PlannedCase } from './build-cases.js';
import { commentLines } from './render-yaml.js';

export function renderCasesYaml(cases: readonly PlannedCase[], source: string): string {
  const lines = [
    ...commentLines(`Imported from the promptfoo tests of ${source}.`),
    "# vars fill the prompt's {{placeholders}}; checks and expectations come from each test's assert.",
    '# A share of the cases (search.holdout) is held out from the mutator; pin one with split: holdout.',
    '',
  ];
  for (const c of cases) {
    if (c.description) lines.push(...commentLines(c.description));
    const entry: Record<string, unknown> = { id: c.id, vars: c.vars };
    if (c.checks.length > 0) entry['checks'] = c.checks;
    if (c.expectations.length > 0) entry['expectations'] = c.expectations;
    lines.push(stringify([entry], { lineWidth: 0 }).trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
