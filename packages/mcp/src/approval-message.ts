import type { ApprovalRequest } from '@weir/core';

/** Characters of the arguments the first approval message shows; more are cut, saying how much. */
export const SHOWN_ARGUMENT_CHARS = 4_000;

/** The most "show all" shows; arguments longer than this cannot be seen whole, so they are not approved. */
export const MAX_SHOWN_ARGUMENT_CHARS = 200_000;

/** How text from the model or a policy is made visible: `escapeForTerminal` of `@weir/safety`. */
export type EscapeText = (text: string) => string;

/** What the client is asked: the whole call, or its start with a "show all" step before any approval. */
export type ApprovalMessage =
  | { readonly kind: 'whole'; readonly message: string }
  | { readonly kind: 'cut'; readonly message: string; /** The second message, with every argument. */ readonly whole: { readonly kind: 'whole'; readonly message: string } }
  | { readonly kind: 'too-long'; readonly characters: number };

/**
 * The elicitation message for an approval. Every piece that came from the model or a policy (the
 * tool name, the reason, each line of the arguments as JSON) is escaped as the terminal prompt
 * escapes it: bidi overrides, zero-width and control characters show as `\uXXXX`, so what the
 * person reads is what runs. Arguments longer than `SHOWN_ARGUMENT_CHARS` are cut, the message
 * says how much, and accepting it only shows them all (a second message): nothing is approved that
 * the person could not see. Arguments past `MAX_SHOWN_ARGUMENT_CHARS` cannot be shown: `too-long`.
 */
export function approvalMessage(request: ApprovalRequest, escape: EscapeText): ApprovalMessage {
  const lines = (JSON.stringify(request.arguments, null, 2) ?? '{}').split('\n').map(escape);
  const args = lines.join('\n');
  if (args.length > MAX_SHOWN_ARGUMENT_CHARS) return { kind: 'too-long', characters: args.length };
  const head = `Allow the ${request.tier} tool "${escape(request.toolName)}"?${request.reason === undefined ? '' : ` ${escape(request.reason)}`}`;
  const whole = { kind: 'whole', message: `${head}\nArguments:\n${args}\nAccept to run it once, decline to refuse.` } as const;
  if (args.length <= SHOWN_ARGUMENT_CHARS) return whole;
  const shown = cutAt(args, SHOWN_ARGUMENT_CHARS);
  const rest = args.length - shown.length;
  return {
    kind: 'cut',
    message: `${head}\nArguments (the first ${shown.length} of ${args.length} characters):\n${shown}\n... (${rest} more characters not shown)\nAccept to show all the arguments before deciding (the call does not run yet), decline to refuse.`,
    whole,
  };
}

// Never split a surrogate pair or an escape (`\u202E` cut after `\u2` would mislead).
function cutAt(text: string, max: number): string {
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const escape = text.lastIndexOf('\\u', end - 1);
  if (escape !== -1 && escape > end - 8) {
    const match = /^\\u(\{[0-9A-F]+\}|[0-9A-F]{4})/.exec(text.slice(escape));
    if (match !== null && escape + match[0].length > end) end = escape;
  }
  return text.slice(0, end);
}
