/**
 * Each program gets only its own role's keys (docs/design/isolation.md): a `command` generator
 * in an experiment with an OpenAI mutator and an Anthropic judge runs as a real subprocess through
 * the run's model pool and reports which key variables it was given.
 */
import { describe, expect, it } from 'vitest';
import type { JudgeConfig } from '../../src/experiment/schema.js';
import { createModelPool } from '../../src/providers/model-pool.js';

const REPORT_KEYS = `process.stdout.write(JSON.stringify(Object.keys(process.env).filter((k) => /KEY|TOKEN/.test(k)).sort()))`;

const ENV = {
  PATH: process.env['PATH'],
  OPENAI_API_KEY: 'sk-mutator-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-judge-0123456789',
  ANTHROPIC_AUTH_TOKEN: 'tok-0123456789',
  HOUSE_MODEL_KEY: 'house-0123456789',
  UNRELATED: 'kept',
};

async function keysSeen(generator: JudgeConfig): Promise<string[]> {
  const pool = createModelPool({
    models: {
      generator,
      mutator: { provider: 'openai', model: 'gpt-4o-mini' },
      judge: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    },
    concurrency: 1,
    env: ENV,
  });
  try {
    const result = await pool.client('generator').complete({ messages: [{ role: 'user', content: 'hi' }] });
    return JSON.parse(result.text);
  } finally {
    await pool.close();
  }
}

describe('the keys a command generator holds', () => {
  it('holds neither the mutator nor the judge key', async () => {
    const seen = await keysSeen({ provider: 'command', command: [process.execPath, '-e', REPORT_KEYS] });
    expect(seen).toEqual(['HOUSE_MODEL_KEY']);
  });

  it('holds only its own key when it names one', async () => {
    const seen = await keysSeen({
      provider: 'command',
      command: [process.execPath, '-e', REPORT_KEYS],
      api_key_env: 'OPENAI_API_KEY',
    });
    expect(seen).toEqual(['HOUSE_MODEL_KEY', 'OPENAI_API_KEY']);
  });
});
