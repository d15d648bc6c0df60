/**
 * The agent CLIs later tests run for real (Claude Code, Codex) come from one install per
 * version outside the repository (test/helpers/pinned-clis.js; `.ci/run` fills the cache before
 * the gate). Each reports the pinned version; nothing is installed into the project.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/built-cli.js';
import { cliCacheDir, PINNED_CLIS, type PinnedCliName, pinnedCli } from '../helpers/pinned-clis.js';

describe('pinned agent CLIs', () => {
  it.each(Object.keys(PINNED_CLIS) as PinnedCliName[])(
    '%s runs at its pinned version from the cache outside the repository',
    async (name) => {
      const bin = pinnedCli(name);
      expect(bin.startsWith(cliCacheDir())).toBe(true);
      expect(bin.startsWith(REPO_ROOT)).toBe(false);
      // A HOME of its own: a CLI may write its settings there.
      const home = mkdtempSync(join(tmpdir(), 'ar-cli-home-'));
      const version = await execa(bin, ['--version'], { reject: false, env: { HOME: home } });
      rmSync(home, { recursive: true, force: true });
      expect(version.exitCode, version.stderr).toBe(0);
      expect(version.stdout).toContain(PINNED_CLIS[name].version);
      // Asking again is a look at the cache, not a second install.
      expect(pinnedCli(name)).toBe(bin);
      expect(existsSync(join(REPO_ROOT, 'node_modules', PINNED_CLIS[name].package))).toBe(false);
    },
    300_000,
  );
});
