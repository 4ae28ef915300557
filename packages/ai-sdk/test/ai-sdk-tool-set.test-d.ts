import type { ToolSet as ToolSet6 } from 'ai';
import type { ToolSet as ToolSet7 } from 'ai-v7';
import { expectTypeOf, test } from 'vitest';
import type { AiSdkToolSet } from '../src/index.js';

test("aiSdkTools' result is a ToolSet of AI SDK 6 and of AI SDK 7", () => {
  expectTypeOf<AiSdkToolSet>().toExtend<ToolSet6>();
  expectTypeOf<AiSdkToolSet>().toExtend<ToolSet7>();
});
