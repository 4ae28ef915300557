import { estimateTokens, turnBudgetOf, type LanguageModel, type Logger, type Message } from '@weir/core';
import { requestRun, requestSubject, type AskApprover, type CallsInFlight } from './server-request-call.js';

/** `mcpServer({ sampling })`: the model that answers the server's `sampling/createMessage`. */
export interface McpSamplingOptions {
  readonly model: LanguageModel;
  /** The most output tokens one answer may take, whatever the server asks. Default 4 096. */
  readonly maxTokens?: number;
}

/** The protocol's sampling result (text only). */
export interface SamplingResult {
  [key: string]: unknown;
  role: 'assistant';
  content: { type: 'text'; text: string };
  model: string;
  stopReason: string;
}

export interface SamplingDeps {
  readonly server: string;
  readonly sampling: { readonly model: LanguageModel; readonly maxTokens: number };
  readonly ask: AskApprover;
  readonly calls: CallsInFlight;
  readonly logger: Logger;
  /** Makes the protocol error the server receives (the SDK's McpError). */
  readonly fail: (code: number, message: string) => Error;
}

/** The code the protocol's examples give a sampling request the user rejected. */
const USER_REJECTED = -1;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/**
 * Answers one `sampling/createMessage` with the harness's model, behind an approval that names the
 * server and shows what it asks, charged to the budget of the turn whose call the server is
 * answering. Declined (the protocol error -1, with why) when nobody approves, the turn's budget is
 * spent, or it cannot be told which turn's budget to charge. Throws only protocol errors.
 */
export async function answerSampling(params: Record<string, unknown>, signal: AbortSignal, deps: SamplingDeps): Promise<SamplingResult> {
  const { server, sampling, logger } = deps;
  const declined = (why: string) => {
    logger.warn({ server }, `declined the sampling request of the MCP server "${server}": ${why}`);
    return deps.fail(USER_REJECTED, `weir declined the sampling request: ${why}`);
  };
  if (params.tools !== undefined || params.toolChoice !== undefined) throw deps.fail(INVALID_PARAMS, 'weir does not run tools for a sampling request; ask without tools.');
  const messages = toMessages(params, deps.fail);
  const maxTokens = Math.min(typeof params.maxTokens === 'number' && params.maxTokens > 0 ? params.maxTokens : sampling.maxTokens, sampling.maxTokens);

  const run = requestRun(deps.calls);
  if (run === 'unknown') throw declined('calls of several turns are under way, so it cannot be told whose budget to charge');
  const budget = turnBudgetOf(run);
  const input = estimateTokens(messages);
  const spent = budget?.exhausted(input);
  if (spent !== undefined) throw declined(`the turn's budget is spent (${spent})`);

  const outcome = await deps.ask(
    {
      ...requestSubject(server, 'sampling', deps.calls),
      tier: 'write',
      arguments: { server, model: sampling.model.id, maxTokens, messages: messages.map((message) => ({ role: message.role, text: message.content })) },
      reason: `The MCP server "${server}" asks weir's model (${sampling.model.id}) to answer the messages shown, in up to ${maxTokens} tokens; the call is charged to this turn's budget. Approving runs it and sends the server the answer; denying declines.`,
    },
    signal,
  );
  if (!outcome.approved) throw declined(outcome.message);
  // The approval may have taken a while: another call of the turn may have spent the rest meanwhile.
  const spentSince = budget?.exhausted(input);
  if (spentSince !== undefined) throw declined(`the turn's budget is spent (${spentSince})`);

  let response;
  try {
    response = await sampling.model.complete({
      messages,
      tools: [],
      signal,
      options: { maxOutputTokens: maxTokens, ...(typeof params.temperature === 'number' ? { temperature: params.temperature } : {}) },
    });
  } catch (error) {
    throw deps.fail(INTERNAL_ERROR, `weir's model failed to answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const modelId = response.model ?? sampling.model.id;
  // A model that reports no usage is charged an estimate: a sampling call is never free.
  budget?.charge(modelId, response.usage ?? { inputTokens: input, outputTokens: Math.ceil(response.text.length / 4) }, sampling.model.metadata?.prices);
  return {
    role: 'assistant',
    content: { type: 'text', text: response.text },
    model: modelId,
    stopReason: response.finishReason === 'length' ? 'maxTokens' : 'endTurn',
  };
}

/** The request's messages as the model's, text only: a system prompt first when given. */
function toMessages(params: Record<string, unknown>, fail: SamplingDeps['fail']): Message[] {
  const list = Array.isArray(params.messages) ? params.messages : [];
  const messages: Message[] = typeof params.systemPrompt === 'string' && params.systemPrompt !== '' ? [{ role: 'system', content: params.systemPrompt }] : [];
  for (const [index, entry] of list.entries()) {
    const { role, content } = (entry ?? {}) as { role?: unknown; content?: unknown };
    const blocks = Array.isArray(content) ? content : [content];
    const text: string[] = [];
    for (const block of blocks) {
      const { type, text: value } = (block ?? {}) as { type?: unknown; text?: unknown };
      if (type !== 'text' || typeof value !== 'string') throw fail(INVALID_PARAMS, `weir samples text only; message ${index + 1} holds a ${String(type)} block.`);
      text.push(value);
    }
    if (role === 'user') messages.push({ role: 'user', content: text.join('\n') });
    else if (role === 'assistant') messages.push({ role: 'assistant', content: text.join('\n') });
    else throw fail(INVALID_PARAMS, `message ${index + 1} has the role ${JSON.stringify(role)}; expected user or assistant.`);
  }
  if (messages.every((message) => message.role === 'system')) throw fail(INVALID_PARAMS, 'the sampling request holds no messages.');
  return messages;
}
