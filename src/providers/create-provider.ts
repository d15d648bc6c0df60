/** From a model entry to the adapter that serves it. */
import type { ModelEntry } from '../experiment/schema.js';
import { createAnthropicProvider } from './adapters/anthropic.js';
import { createOpenAiProvider } from './adapters/openai.js';
import type { Provider } from './types.js';

export interface ProviderDeps {
  env: NodeJS.ProcessEnv;
  /** Where a `command` provider's relative argv paths resolve (the project root). */
  cwd?: string;
  /** Told about things that do not fail a call (a CLI ignoring a setting). */
  onWarning?: (message: string) => void;
}

export type ProviderFactory = (entry: ModelEntry) => Provider | Promise<Provider>;

function processDeps(deps: ProviderDeps): Pick<ProviderDeps, 'env' | 'onWarning'> {
  return { env: deps.env, ...(deps.onWarning === undefined ? {} : { onWarning: deps.onWarning }) };
}

export async function createProvider(entry: ModelEntry, deps: ProviderDeps): Promise<Provider> {
  const http = { env: deps.env };
  switch (entry.provider) {
    case 'anthropic':
      return createAnthropicProvider(entry, http);
    case 'openai':
      return createOpenAiProvider(entry, http);
    // The process-based adapters load on demand: they bring execa, which HTTP-only processes
    // (the judge and grader among them) would otherwise pay for at every start.
    case 'claude-cli': {
      const { createClaudeCliProvider } = await import('./adapters/claude-cli.js');
      return createClaudeCliProvider(entry, processDeps(deps));
    }
    case 'codex-cli': {
      const { createCodexCliProvider } = await import('./adapters/codex-cli.js');
      return createCodexCliProvider(entry, processDeps(deps));
    }
    case 'command': {
      const { createCommandProvider } = await import('./adapters/command.js');
      return createCommandProvider(entry, {
        env: deps.env,
        ...(deps.cwd === undefined ? {} : { cwd: deps.cwd }),
      });
    }
    case 'sim': {
      // Loaded on demand: runs against real models never pay for the simulator's start-up.
      const { createSimProvider } = await import('./sim/sim-provider.js');
      return createSimProvider(entry);
    }
  }
}
