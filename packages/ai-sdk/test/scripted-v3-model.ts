import type { LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import type { AiSdkKit } from './ai-sdk-kit.js';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/** A step of the script: the model calls one tool, or answers with text. */
export type ScriptStep = { readonly call: { readonly id: string; readonly name: string; readonly input: unknown } } | { readonly text: string };

/**
 * The AI SDK's own MockLanguageModelV3, strict: each doGenerate takes the next step of the script
 * and fails on a call past its end; `prompts` keeps what each call was sent; `assertDone` fails
 * when a step went unused.
 */
export function scriptedModel(kit: AiSdkKit, steps: readonly ScriptStep[]) {
  const prompts: LanguageModelV3CallOptions['prompt'][] = [];
  let next = 0;
  const model = new kit.test.MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const step = steps[next++];
      if (step === undefined) throw new Error(`scripted model: unexpected call ${next} (the script has ${steps.length} steps)`);
      const content: LanguageModelV3Content[] =
        'call' in step ? [{ type: 'tool-call', toolCallId: step.call.id, toolName: step.call.name, input: JSON.stringify(step.call.input) }] : [{ type: 'text', text: step.text }];
      return { content, finishReason: { unified: 'call' in step ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
  return {
    model,
    prompts,
    assertDone: () => {
      if (next !== steps.length) throw new Error(`scripted model: ${steps.length - next} steps unused`);
    },
  };
}

/** The tool-result part the model was sent for `toolCallId` in the prompt of a call. */
export function toolResultIn(prompt: LanguageModelV3CallOptions['prompt'] | undefined, toolCallId: string) {
  for (const message of prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result' && part.toolCallId === toolCallId) return part;
  }
  return undefined;
}
