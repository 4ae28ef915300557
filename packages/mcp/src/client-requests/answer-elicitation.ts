import type { Logger } from '@weir/core';
import { checkAnswer, formFields, withDefaults, type FormField } from './elicitation-form.js';
import { requestSubject, type AskApprover, type CallsInFlight } from './server-request-call.js';

/** What a server asks with `elicitation/create`, as an `elicit` answerer gets it. */
export type McpElicitation =
  | {
      readonly server: string;
      readonly mode: 'form';
      readonly message: string;
      readonly fields: readonly FormField[];
      /** The schema as the server sent it; the answer is checked against it. */
      readonly requestedSchema: Readonly<Record<string, unknown>>;
      /** Aborts when the server cancels the request or the connection closes. */
      readonly signal: AbortSignal;
    }
  | {
      readonly server: string;
      readonly mode: 'url';
      readonly message: string;
      /** The page the server wants the person to open. weir never opens it: show it, ask for consent. */
      readonly url: string;
      readonly elicitationId: string;
      readonly signal: AbortSignal;
    };

/** An answer to an elicitation. With `accept` in form mode, `content` holds the values (defaults are filled in by weir). */
export type McpElicitAnswer =
  | { readonly action: 'accept'; readonly content?: Readonly<Record<string, unknown>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** Answers a server's elicitation (a front end that can show a form). May throw: the request is then declined. */
export type McpElicitor = (request: McpElicitation) => McpElicitAnswer | Promise<McpElicitAnswer>;

/** The protocol's elicitation result. */
export type ElicitResult = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

export interface ElicitationDeps {
  readonly server: string;
  /** The answerer given to `mcpServer({ elicit })`; without one the harness's approver is asked. */
  readonly elicit: McpElicitor | undefined;
  readonly ask: AskApprover;
  readonly calls: CallsInFlight;
  readonly logger: Logger;
}

const DECLINE: ElicitResult = Object.freeze({ action: 'decline' }) as ElicitResult;

/**
 * Answers one `elicitation/create` (the SDK has checked its shape). Never throws: whatever goes
 * wrong (no approver, a denial, a bad answer, an answerer that fails) declines, with a warning
 * naming the server, so a server never waits on weir for nothing.
 */
export async function answerElicitation(params: Record<string, unknown>, signal: AbortSignal, deps: ElicitationDeps): Promise<ElicitResult> {
  const { server, logger } = deps;
  const message = typeof params.message === 'string' ? params.message : '';
  const decline = (why: string): ElicitResult => {
    logger.warn({ server }, `declined the elicitation of the MCP server "${server}": ${why}`);
    return DECLINE;
  };
  try {
    if (params.mode === 'url') {
      const url = typeof params.url === 'string' ? params.url : '';
      if (!isWebUrl(url)) return decline(`the URL ${JSON.stringify(url)} is not an http(s) URL`);
      const elicitationId = typeof params.elicitationId === 'string' ? params.elicitationId : '';
      if (deps.elicit !== undefined) return answerOf(await deps.elicit({ server, mode: 'url', message, url, elicitationId, signal }), undefined, decline);
      const outcome = await deps.ask(
        {
          ...requestSubject(server, 'elicitation', deps.calls),
          tier: 'dangerous',
          arguments: { server, url, message },
          reason: `The MCP server "${server}" asks you to open ${url} in your browser (weir does not open it). It says: ${message}. Approving tells the server you agree to open it; denying declines.`,
        },
        signal,
      );
      return outcome.approved ? { action: 'accept' } : decline(outcome.message);
    }
    const requestedSchema = params.requestedSchema;
    const form = formFields(requestedSchema);
    if ('error' in form) return decline(form.error);
    const schema = requestedSchema as Record<string, unknown>;
    if (deps.elicit !== undefined) {
      return answerOf(await deps.elicit({ server, mode: 'form', message, fields: form.fields, requestedSchema: schema, signal }), schema, decline);
    }
    // An approver answers allow or deny: what it can send is the form filled with its defaults, shown whole.
    const answer = withDefaults(schema, {});
    const problem = checkAnswer(schema, answer);
    if (problem !== undefined) return decline(`the form cannot be answered with its defaults (${problem}), and only an \`elicit\` answerer given to mcpServer can fill it in`);
    const outcome = await deps.ask(
      {
        ...requestSubject(server, 'elicitation', deps.calls),
        tier: 'write',
        arguments: { server, message, fields: form.fields.map(describeField), answer },
        reason: `The MCP server "${server}" asks for information: ${message}. Approving sends it the answer shown; denying declines.`,
      },
      signal,
    );
    return outcome.approved ? { action: 'accept', content: answer } : decline(outcome.message);
  } catch (error) {
    return decline(`the answerer failed (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** An `elicit` answer as the protocol takes it: form content completed with defaults and checked, else declined. */
function answerOf(answer: McpElicitAnswer | undefined, schema: Record<string, unknown> | undefined, decline: (why: string) => ElicitResult): ElicitResult {
  const action = answer?.action;
  if (action === 'decline') return DECLINE;
  if (action === 'cancel') return { action: 'cancel' };
  if (action !== 'accept') return decline(`the answerer gave ${JSON.stringify(action)}, not accept, decline or cancel`);
  if (schema === undefined) return { action: 'accept' };
  const given = answer!.content;
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) return decline('the answer is not an object of values');
  const content = withDefaults(schema, given ?? {});
  const problem = checkAnswer(schema, content);
  return problem === undefined ? { action: 'accept', content } : decline(`the answer does not fit the requested form: ${problem}`);
}

function describeField(field: FormField): Record<string, unknown> {
  return {
    name: field.name,
    type: field.type,
    ...(field.title === undefined ? {} : { title: field.title }),
    ...(field.description === undefined ? {} : { description: field.description }),
    required: field.required,
    ...(field.choices === undefined ? {} : { choices: field.choices }),
  };
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
