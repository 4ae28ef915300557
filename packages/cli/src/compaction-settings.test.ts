import { describe, expect, it } from 'vitest';
import type { LanguageModel } from '@weir/core';
import { autoCompaction } from './compaction-settings.js';
import { parseWeirConfig } from './weir-config.js';

const model = (contextWindow?: number) => ({ id: 'test:model', complete: async () => ({ text: '', toolCalls: [], finishReason: 'stop' }), ...(contextWindow === undefined ? {} : { metadata: { contextWindow } }) }) as LanguageModel;
const config = async (compact: unknown) => (await parseWeirConfig({ compact }, '/p/weir.config.json')).compact;

describe('"compact" in weir.config.json', () => {
  it('compacts at 80% of the model\'s window by default, at the config\'s share of the config\'s window when given, never with auto false', async () => {
    expect(autoCompaction(undefined, model(200_000)).options).toEqual({ maxTokens: 160_000 });
    expect(autoCompaction(await config({ auto: 0.5, contextWindow: 1000 }), model(200_000)).options).toEqual({ maxTokens: 500 });
    expect(autoCompaction(await config({ contextWindow: 1000 }), model()).options).toEqual({ maxTokens: 800 });
    expect(autoCompaction(await config({ auto: false }), model(200_000))).toEqual({ options: undefined, description: expect.stringContaining('off') });
  });

  it('is off when no context window is known, and says how to give one', () => {
    expect(autoCompaction(undefined, model())).toEqual({ options: undefined, description: expect.stringContaining('"compact": { "contextWindow": <tokens> }') });
  });

  it('refuses a share outside (0, 1], a window that is not a whole number above 0, and unknown keys, naming the key', async () => {
    for (const [value, key] of [[{ auto: 0 }, 'compact.auto'], [{ auto: 1.5 }, 'compact.auto'], [{ auto: '80%' }, 'compact.auto'], [{ contextWindow: 0 }, 'compact.contextWindow'], [{ contextWindow: 1.5 }, 'compact.contextWindow'], [{ keepSteps: 1 }, 'compact.keepSteps'], [true, 'compact']] as const) {
      await expect(config(value)).rejects.toMatchObject({ message: expect.stringContaining(`"${key}"`) });
    }
  });
});
