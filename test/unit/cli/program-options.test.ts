/**
 * The command line as documented: `validate` takes `run`'s options (README), `--batch`
 * included, and `eval --help` lists only what an evaluation uses (it still accepts the loop's
 * budget and search flags, to say they do nothing, so a CI line written for `run` does not break).
 */
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';

function command(name: string): Command {
  const found = buildProgram().commands.find((c) => c.name() === name);
  if (found === undefined) throw new Error(`no command ${name}`);
  return found;
}

const longs = (c: Command, visible: boolean) =>
  (c.options as readonly (Option & { hidden: boolean })[])
    .filter((o) => !visible || !o.hidden)
    .map((o) => o.long);

describe('the overrides each command takes', () => {
  it('gives validate every option of run but --detach', () => {
    const run = longs(command('run'), true).filter((o) => o !== '--detach');
    expect(longs(command('validate'), false)).toEqual(expect.arrayContaining(run));
    expect(longs(command('validate'), false)).toContain('--batch');
  });

  it("leaves the loop's budget and search flags out of eval's help but accepts them", () => {
    const evalCommand = command('eval');
    const shown = longs(evalCommand, true);
    for (const flag of ['--iterations', '--hours', '--usd', '--patience', '--target', '--candidates']) {
      expect(shown).not.toContain(flag);
      expect(longs(evalCommand, false)).toContain(flag);
    }
    expect(shown).toEqual(expect.arrayContaining(['--samples', '--judge-samples', '--seed', '--provider']));
    expect(evalCommand.helpInformation()).not.toMatch(/--iterations|--candidates/);
  });
});

describe('the provider from the environment', () => {
  it('is the default of every --provider, so a shell can run each documented line offline as written', () => {
    for (const name of ['validate', 'eval', 'calibrate', 'run', 'resume']) {
      const provider = (command(name).options as readonly (Option & { envVar?: string })[]).find(
        (o) => o.long === '--provider',
      );
      expect(provider?.envVar, name).toBe('AUTORESEARCH_PROVIDER');
    }
  });
});
