import type { ModelRequest, ToolSchema } from '@weir/core';
import { geminiCallOptions } from './gemini-call-options.js';
import { toGeminiContents } from './to-gemini-contents.js';
import { toGeminiSchema, type SchemaForm } from './to-gemini-schema.js';

export interface GeminiRequestOptions {
  readonly model: string;
  readonly schemaForm: SchemaForm;
  readonly includeThoughts: boolean;
  readonly extraBody: Readonly<Record<string, unknown>> | undefined;
  /** Told once per tool whose schema lost keywords in the `openapi` form. */
  readonly warn: (toolName: string, message: string) => void;
}

/**
 * The `streamGenerateContent` body of one call: `contents` and `systemInstruction` from the history,
 * the tools as one `functionDeclarations` entry (parameters as `parametersJsonSchema`, JSON Schema as
 * it is, or with `schemaForm: 'openapi'` as `parameters` converted to the API's own `Schema`, a
 * warning naming what was dropped), and `generationConfig.thinkingConfig.includeThoughts` so that
 * thought summaries come back as reasoning; the call options as `geminiCallOptions` maps them
 * (`warnings` says what could not be honoured). `extraBody` adds fields (`safetySettings`,
 * `generationConfig` entries, merged) but cannot replace contents, tools or the system prompt.
 * Throws `TypeError` for a message with an unknown role.
 */
export function toGeminiRequest(request: ModelRequest, options: GeminiRequestOptions): { body: Record<string, unknown>; warnings: string[] } {
  const { contents, systemInstruction } = toGeminiContents(request.messages);
  const called = geminiCallOptions(request.options, options.model);
  const extra = options.extraBody ?? {};
  const extraConfig = typeof extra['generationConfig'] === 'object' && extra['generationConfig'] !== null ? (extra['generationConfig'] as Record<string, unknown>) : {};
  const extraThinking = typeof extraConfig['thinkingConfig'] === 'object' && extraConfig['thinkingConfig'] !== null ? (extraConfig['thinkingConfig'] as Record<string, unknown>) : {};
  const thinkingConfig = { ...(options.includeThoughts && { includeThoughts: true }), ...called.thinkingConfig, ...extraThinking };
  const generationConfig = { ...called.generationConfig, ...extraConfig, ...(Object.keys(thinkingConfig).length > 0 && { thinkingConfig }) };
  return {
    body: {
      ...(called.toolConfig !== undefined && { toolConfig: called.toolConfig }),
      ...extra,
      contents,
      ...(systemInstruction !== undefined && { systemInstruction }),
      ...(request.tools.length > 0 && { tools: [{ functionDeclarations: request.tools.map((tool) => declaration(tool, options)) }] }),
      ...(Object.keys(generationConfig).length > 0 && { generationConfig }),
    },
    warnings: called.warnings,
  };
}

function declaration(tool: ToolSchema, options: GeminiRequestOptions): Record<string, unknown> {
  const base = { name: tool.name, description: tool.description };
  if (options.schemaForm === 'json-schema') return { ...base, parametersJsonSchema: tool.parameters };
  const { schema, dropped } = toGeminiSchema(tool.parameters);
  if (dropped.length > 0) options.warn(tool.name, `The parameters of tool "${tool.name}" lost what Gemini's schema form rejects: ${dropped.join(', ')}.`);
  return { ...base, parameters: schema };
}
