/** The provider-spec versions `fromAiSdk` speaks: AI SDK 5 (`v2`), 6 (`v3`) and 7 (`v4`). */
export type SpecVersion = 'v2' | 'v3' | 'v4';

/**
 * An AI SDK language model of provider spec v2, v3 or v4 (`LanguageModelV2`, `V3`, `V4` of
 * `@ai-sdk/provider`), as far as weir reads it. Written here, not imported, so this package's types
 * need no particular major of `@ai-sdk/provider`: a model of any of them is accepted.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: SpecVersion | (string & {});
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: any): PromiseLike<any>;
  doStream(options: any): PromiseLike<any>;
}
