import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_LINE_BYTES, type OversizedLine } from './line-reader.js';

/** The JSON-RPC error code (implementation-defined server range) of an answer dropped for its size. */
export const OUTPUT_TOO_LARGE_RPC = -32070;

/** The cap as people read it. */
export const MAX_ANSWER_TEXT = `${MAX_LINE_BYTES / 1024 / 1024} MiB`;

const ID = String.raw`("(?:[^"\\]|\\.)*"|-?\d+)`;
// Where a JSON-RPC answer's top-level id can be read without parsing the whole line: first (after
// "jsonrpc") as a hand-written server puts it, or last, as the SDK's serialiser does.
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
const ID_LAST = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

/**
 * The error answer that stands in for a dropped one, so only the call it answered fails: the
 * request id is read from the line's ends. `undefined` when no id can be read there (the line is
 * then only reported, and that call ends by its idle deadline).
 */
export function answerTooLarge(line: OversizedLine): JSONRPCMessage | undefined {
  const raw = ID_FIRST.exec(line.head)?.[1] ?? ID_LAST.exec(line.tail)?.[1];
  if (raw === undefined) return undefined;
  let id: string | number;
  try {
    id = JSON.parse(raw) as string | number;
  } catch {
    return undefined;
  }
  return {
    jsonrpc: '2.0',
    id,
    error: { code: OUTPUT_TOO_LARGE_RPC, message: `the answer was ${line.bytes} bytes, over the cap of ${MAX_ANSWER_TEXT} (${MAX_LINE_BYTES} bytes) for one message`, data: { bytes: line.bytes, cap: MAX_LINE_BYTES } },
  };
}
