import { SESSION_RECORD_VERSION } from '@weir/core';
import { checkStoredParts } from './image-blobs.js';

type Check = (value: Record<string, unknown>) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const optional = (value: unknown, test: (value: unknown) => boolean) => value === undefined || test(value);

function fields(value: Record<string, unknown>, names: readonly string[]): string | undefined {
  const missing = names.find((name) => !isString(value[name]));
  return missing === undefined ? undefined : `"${missing}" must be a string`;
}

const CHECKS: Readonly<Record<string, Check>> = {
  session: (r) => {
    if (r.seq !== 1) return 'the session record must be the first';
    const forked = r.forkedFrom;
    if (!optional(forked, (f) => isObject(f) && isString(f.id) && Number.isInteger(f.seq))) return '"forkedFrom" must be { id, seq }';
    if (!optional(r.title, isString)) return '"title" must be a string';
    return fields(r, ['id', 'created']);
  },
  message: (r) => checkMessage(r.message),
  tool_call_started: (r) => fields(r, ['callId', 'toolName']) ?? (r.arguments === undefined ? '"arguments" is missing' : undefined),
  tool_result: (r) => {
    if (typeof r.ok !== 'boolean') return '"ok" must be a boolean';
    if (!optional(r.error, (e) => isObject(e) && isString(e.code) && isString(e.message))) return '"error" must be { code, message }';
    const parts = r.parts === undefined ? undefined : checkStoredParts(r.parts);
    if (parts !== undefined) return `"parts": ${parts}`;
    return fields(r, ['callId', 'toolName', 'content']);
  },
  approval_decision: (r) => {
    if (r.decision !== 'allow' && r.decision !== 'deny') return '"decision" must be "allow" or "deny"';
    if (!optional(r.message, isString)) return '"message" must be a string';
    if (!optional(r.callKey, isString)) return '"callKey" must be a string';
    return fields(r, ['callId', 'toolName', 'argsHash']);
  },
  approval_request: (r) => {
    if (r.arguments === undefined) return '"arguments" is missing';
    if (!optional(r.reason, isString)) return '"reason" must be a string';
    if (!optional(r.askedBy, isString)) return '"askedBy" must be a string';
    if (r.callKey === '') return '"callKey" must not be empty';
    return fields(r, ['callId', 'callKey', 'toolName', 'tier', 'argsHash']);
  },
  turn_end: (r) => (optional(r.reason, isString) ? undefined : '"reason" must be a string'),
  compaction: (r) => {
    const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
    if (!count(r.from) || !count(r.count)) return '"from" and "count" must be integers >= 0';
    return fields(r, ['summary']);
  },
  rewind: (r) => {
    const earlier = (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) < (r.seq as number);
    if (!earlier(r.toSeq)) return '"toSeq" must be the seq of an earlier record';
    if (!optional(r.undoes, earlier)) return '"undoes" must be the seq of an earlier record';
    return undefined;
  },
};

function checkMessage(message: unknown): string | undefined {
  if (!isObject(message)) return '"message" must be an object';
  if (!isString(message.content)) return 'the message content must be a string';
  if ((message.role === 'user' || message.role === 'tool') && message.parts !== undefined) {
    const parts = checkStoredParts(message.parts);
    if (parts !== undefined) return `the message "parts": ${parts}`;
  }
  switch (message.role) {
    case 'system':
    case 'user':
      return undefined;
    case 'assistant': {
      if (!optional(message.reasoning, isString)) return '"reasoning" must be a string';
      if (!optional(message.providerData, isProviderData)) return '"providerData" must map provider names to objects';
      const parts = message.parts === undefined ? undefined : checkAssistantParts(message.parts);
      if (parts !== undefined) return `the message "parts": ${parts}`;
      const calls = message.toolCalls;
      if (calls === undefined) return undefined;
      if (!Array.isArray(calls)) return '"toolCalls" must be an array';
      const bad = calls.find((c) => !(isObject(c) && isString(c.id) && c.id !== '' && isString(c.name) && (isString(c.arguments) || isObject(c.arguments))));
      return bad === undefined ? undefined : 'each tool call needs an id, a name and arguments (a string or an object)';
    }
    case 'tool':
      if (!optional(message.isError, (e) => typeof e === 'boolean')) return '"isError" must be a boolean';
      return fields(message, ['toolCallId', 'toolName']);
    default:
      return `unknown message role ${JSON.stringify(message.role)}`;
  }
}

const isProviderData = (value: unknown) => isObject(value) && Object.values(value).every(isObject);
const isCall = (c: unknown) => isObject(c) && isString(c.id) && c.id !== '' && isString(c.name) && (isString(c.arguments) || isObject(c.arguments));

/** An assistant message's ordered parts: text, reasoning (text plus provider data), tool calls. */
function checkAssistantParts(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return 'must be an array';
  for (const [index, part] of parts.entries()) {
    const where = `part ${index + 1}`;
    if (!isObject(part)) return `${where} must be an object`;
    if (part.type === 'text' || part.type === 'reasoning') {
      if (!isString(part.text)) return `${where} (${part.type}) needs a string "text"`;
      if (!optional(part.providerData, isProviderData)) return `${where}: "providerData" must map provider names to objects`;
    } else if (part.type === 'tool-call') {
      if (!isCall(part.call)) return `${where} (tool-call) needs a "call" with an id, a name and arguments`;
    } else return `${where} has an unknown type ${JSON.stringify(part.type)}`;
  }
  return undefined;
}

/**
 * Checks a parsed line against the schema and the expected sequence number. Returns why it is not
 * a valid record, or `undefined` when it is. Never throws. Unknown extra properties are allowed (and
 * kept); unknown record types and versions are not.
 */
export function checkSessionRecord(value: unknown, expectedSeq: number): string | undefined {
  if (!isObject(value)) return 'a record must be a JSON object';
  if (value.v !== SESSION_RECORD_VERSION) return `unsupported record version ${JSON.stringify(value.v)} (this reader knows ${SESSION_RECORD_VERSION})`;
  if (!Number.isInteger(value.seq)) return '"seq" must be an integer';
  if (value.seq !== expectedSeq) {
    const seq = value.seq as number;
    return seq < expectedSeq ? `duplicate or out-of-order seq ${seq} (expected ${expectedSeq})` : `missing seq ${expectedSeq} (found ${seq})`;
  }
  if (!isString(value.at)) return '"at" must be a string';
  const check = isString(value.type) && Object.hasOwn(CHECKS, value.type) ? CHECKS[value.type] : undefined;
  if (check === undefined) return `unknown record type ${JSON.stringify(value.type)}`;
  if (expectedSeq === 1 && value.type !== 'session') return 'the first record must be the session record';
  const reason = check(value);
  return reason === undefined ? undefined : `${value.type} record: ${reason}`;
}
