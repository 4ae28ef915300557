import { ECHO_ARGUMENTS, FINAL_TEXT, type StepPlan } from './step-plan.js';

/**
 * The bare baseline: the least an agent loop can do for the same turn, with no framework. It keeps
 * a message history (every real loop must, to send it to the model), awaits an async model
 * function, parses the tool arguments the way a model's JSON string must be parsed, awaits an
 * async tool and appends the result. Each peer script measures this in its own process, beside the
 * peer and interleaved with it, so the ratio peer / bare cancels most of the machine's noise.
 */

interface BareToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

type BareMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls: readonly BareToolCall[] }
  | { readonly role: 'tool'; readonly callId: string; readonly name: string; readonly content: string };

/** A trivial async model: it reads nothing but the plan, as the peers' mock models do. */
async function bareModel(_history: readonly BareMessage[], plan: StepPlan): Promise<BareMessage & { role: 'assistant' }> {
  if (plan.nextIsToolCall()) {
    return { role: 'assistant', content: '', toolCalls: [{ id: plan.callId(), name: 'echo', arguments: ECHO_ARGUMENTS }] };
  }
  return { role: 'assistant', content: FINAL_TEXT, toolCalls: [] };
}

/** The trivial async tool: returns its input, as the peers' `echo` tools do. */
async function bareEcho(input: { text: string }, plan: StepPlan): Promise<string> {
  plan.toolRan();
  return input.text;
}

/** One turn of the bare loop; `plan.begin(k)` must have been called. Returns the final text. */
export async function bareTurn(plan: StepPlan, userText: string): Promise<string> {
  const history: BareMessage[] = [{ role: 'user', content: userText }];
  for (;;) {
    const reply = await bareModel(history, plan);
    history.push(reply);
    if (reply.toolCalls.length === 0) return reply.content;
    for (const call of reply.toolCalls) {
      const input = JSON.parse(call.arguments) as { text: string };
      const content = await bareEcho(input, plan);
      history.push({ role: 'tool', callId: call.id, name: call.name, content });
    }
  }
}
