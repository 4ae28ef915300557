/**
 * The AI SDK packages this Node runs: AI SDK 7 (`ai-v7`, `ai-sdk-*-v4`, provider spec v4) needs
 * Node >= 22 and is tested on the Node 24 leg of CI; AI SDK 6 (`ai`, `@ai-sdk/*` 3.x, provider
 * spec v3) is tested on the Node 20 leg. Both are installed side by side (npm aliases); each test
 * file runs once, against the major of the Node it runs on, and says once which one it skipped.
 */
type Ai = typeof import('ai');
type AiTest = typeof import('ai/test');
type OpenAI = typeof import('@ai-sdk/openai');
type Anthropic = typeof import('@ai-sdk/anthropic');
type Google = typeof import('@ai-sdk/google');

export interface AiSdkKit {
  readonly major: 6 | 7;
  /** The provider spec version of this major's provider packages. */
  readonly spec: 'v3' | 'v4';
  readonly ai: Ai;
  readonly test: AiTest;
  readonly openai: OpenAI;
  readonly anthropic: Anthropic;
  readonly google: Google;
}

const nodeMajor = Number(process.versions.node.split('.')[0]);
export const AI_SDK_MAJOR: 6 | 7 = nodeMajor >= 22 ? 7 : 6;

let said = false;

/** Loads this Node's AI SDK major (see the file comment). */
export async function aiSdkKit(): Promise<AiSdkKit> {
  if (!said) {
    said = true;
    const other = AI_SDK_MAJOR === 7 ? 'AI SDK 6 (tested on the Node 20 leg)' : 'AI SDK 7 (needs Node >= 22; tested on the Node 24 leg)';
    process.stderr.write(`skipped: ${other}: this is Node ${process.versions.node}, which runs AI SDK ${AI_SDK_MAJOR}\n`);
  }
  if (AI_SDK_MAJOR === 7) {
    const [ai, test, openai, anthropic, google] = await Promise.all([
      import('ai-v7'),
      import('ai-v7/test'),
      import('ai-sdk-openai-v4'),
      import('ai-sdk-anthropic-v4'),
      import('ai-sdk-google-v4'),
    ]);
    // AI SDK 7's types differ in places the tests do not touch; they run on its values.
    return { major: 7, spec: 'v4', ai: ai as unknown as Ai, test: test as unknown as AiTest, openai: openai as unknown as OpenAI, anthropic: anthropic as unknown as Anthropic, google: google as unknown as Google };
  }
  const [ai, test, openai, anthropic, google] = await Promise.all([import('ai'), import('ai/test'), import('@ai-sdk/openai'), import('@ai-sdk/anthropic'), import('@ai-sdk/google')]);
  return { major: 6, spec: 'v3', ai, test, openai, anthropic, google };
}
