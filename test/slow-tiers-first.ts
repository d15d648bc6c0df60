/**
 * The order test files start in. vitest's own order runs projects by name (integration, kill,
 * unit) and, within one, the longest first by its cache of earlier runs (a clean clone has
 * none: the largest files first). The kill tier's five files take one to two minutes each, so
 * after the integration tier they left one worker finishing a long file while the other sat
 * idle. Started first, they run beside the many short integration files instead.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const TIERS = ['kill', 'integration', 'unit'];

export class SlowTiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const tier = (file: TestSpecification) => TIERS.indexOf(file.project.name);
    // Stable: within a tier, vitest's order stands.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => tier(a.file) - tier(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
