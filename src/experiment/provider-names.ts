/**
 * The providers a model entry may name. A plain list, so the judge's model settings can
 * name them without building the experiment schema (schema.ts builds its enum from it).
 */
export const PROVIDERS = ['anthropic', 'openai', 'claude-cli', 'codex-cli', 'command', 'sim'] as const;
