import type { Tool as Tool6, ToolSet as ToolSet6 } from 'ai';
import type { Tool as Tool7, ToolSet as ToolSet7 } from 'ai-v7';
import { expectTypeOf, test } from 'vitest';
import type { AiSdkToolLike, AiSdkToolSet } from '../src/index.js';

test("aiSdkTools' result is a ToolSet of AI SDK 6 and of AI SDK 7", () => {
  expectTypeOf<AiSdkToolSet>().toExtend<ToolSet6>();
  expectTypeOf<AiSdkToolSet>().toExtend<ToolSet7>();
});

test('weirTool takes a tool of AI SDK 6 and of AI SDK 7', () => {
  expectTypeOf<Tool6<{ city: string }, string>>().toExtend<AiSdkToolLike>();
  expectTypeOf<Tool7<{ city: string }, string>>().toExtend<AiSdkToolLike>();
});
