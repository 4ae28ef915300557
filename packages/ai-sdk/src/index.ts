export { aiSdkTools } from './tools/ai-sdk-tools.js';
export type { AiSdkExecutionOptions, AiSdkTool, AiSdkToolSet, AiSdkToolsOptions } from './tools/ai-sdk-tools.js';
export type { AiSdkSchema } from './tools/ai-sdk-schema.js';
export type { AiSdkContentPart, AiSdkToolOutput } from './tools/to-model-output.js';
export { WeirToolError } from './tools/weir-tool-error.js';

export { weirTool } from './tools/weir-tool.js';
export type { AiSdkToolLike, WeirToolOptions } from './tools/weir-tool.js';
export { fromAiSdkTools } from './tools/from-ai-sdk-tools.js';
export type { FromAiSdkToolsOptions } from './tools/from-ai-sdk-tools.js';

export { fromAiSdk } from './model/from-ai-sdk.js';
export type { FromAiSdkOptions, RetryEvent } from './model/from-ai-sdk.js';
export type { AiSdkLanguageModel, SpecVersion } from './model/ai-sdk-language-model.js';
export { AiSdkModelError } from './model/ai-sdk-model-error.js';
