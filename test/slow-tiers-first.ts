/**
 * The order test files start in. vitest's own order runs projects by name (integration, kill,
 * unit) and, within one, the longest first by its cache of earlier runs (a clean clone has
 * none: the largest files first). The kill tier's five files take one to two minutes each, so
 * after the integration tier they left one worker finishing a long file while the other sat
 * idle. Started first, they run beside the many short integration files instead.
 *
 * A few files run for minutes one test after another, and being small they come late on a
 * clean clone (CI has no timing cache): bench-smoke, its scripts in turn, started 69th of 302
 * and ran on alone at the end. They start before everything, the longest first.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const TIERS = ['kill', 'integration', 'unit'];
const LONG_FILES = ['test/integration/bench-smoke.test.ts', 'test/integration/examples-sim-rise.test.ts'];

export class SlowTiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const long = (file: TestSpecification) => {
      const index = LONG_FILES.indexOf(relative(root, file.moduleId));
      return index === -1 ? LONG_FILES.length : index;
    };
    const tier = (file: TestSpecification) => TIERS.indexOf(file.project.name);
    // Stable: within a tier, vitest's order stands.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => long(a.file) - long(b.file) || tier(a.file) - tier(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
