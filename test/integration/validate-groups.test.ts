/**
 * `validate` and groups of cases (docs/design/paired-acceptance.md, "Groups of cases"): too few
 * train groups to decide is an error at the key that declares them, too few holdout groups and
 * too few train groups to detect a useful gain are warnings, and the plan's smallest detectable
 * gain is the one on group means, beside the figure the cases would give if independent.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { afterAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/commands/validate.js';
import type { Terminal } from '../../src/ui/terminal.js';

const GROUPS = resolve(import.meta.dirname, '../fixtures/groups');
const root = await mkdtemp(join(tmpdir(), 'ar-validate-groups-'));
afterAll(() => rm(root, { recursive: true, force: true }));

async function validate(name: string, json = false) {
  const out: string[] = [];
  const term: Terminal = {
    out: (text) => out.push(text),
    err: (text) => out.push(text),
    colors: pc.createColors(false),
    isTTY: false,
    errIsTTY: false,
    status: () => undefined,
    rewind: () => undefined,
    width: 200,
  };
  const code = await runValidate(
    join(GROUPS, name),
    { json },
    { cwd: root, env: {}, term, runsDir: join(root, 'runs') },
  );
  return { code, text: out.join('\n') };
}

describe('validate: groups of cases', () => {
  it('warns of one holdout group and of 3 train groups, and plans the gain on group means', async () => {
    const { code, text } = await validate('few-groups');
    expect(code).toBe(0);
    expect(text).toMatch(
      /experiment\.yaml:11:3 {2}search\.group_by {2}warning: the holdout cases form 1 group: with fewer than 2 groups the holdout has no interval/,
    );
    expect(text).toMatch(
      /experiment\.yaml:11:3 {2}search\.group_by {2}warning: only 3 train groups: the interval on group means has 2 degrees of freedom, so the smallest gain it detects is about 0\.2 at best/,
    );
    expect(text).toContain(
      '9 train cases in 3 groups × 1 sample, at best; ≈ 0.14 if the cases were independent',
    );

    const json = JSON.parse((await validate('few-groups', true)).text);
    const detectable = json.plan.acceptance.detectable;
    expect(detectable.groups.count).toBe(3);
    // Three groups of three cases: the gain on group means is larger than the ungrouped one.
    expect(detectable.effect).toBeGreaterThan(detectable.groups.ungroupedEffect);
  });

  it('refuses one train group: the interval on group means cannot decide', async () => {
    const { code, text } = await validate('one-train-group');
    expect(code).toBe(2);
    expect(text).toMatch(
      /cases\.yaml:1:1 {2}group {2}error: the train cases form 1 group: paired acceptance takes its interval on group means and needs at least 2 train groups {2}\(add cases of other kinds/,
    );
  });
});
