import { Readable, Writable } from 'node:stream';
import type { AcpHost } from './acp-host.js';
import { serveAcp, type AcpServer } from './serve-acp.js';

/**
 * Serves weir as an ACP agent on this process's standard input and output (what an editor
 * starts). Standard output carries only protocol messages: status lines go to `host.say`.
 */
export function serveAcpOnStdio(
  host: AcpHost,
  agentInfo: { readonly name: string; readonly version: string },
  permissionTimeoutMs?: number,
  settings: { readonly editorFiles?: boolean } = {},
): AcpServer {
  return serveAcp({
    host,
    agentInfo,
    ...(settings.editorFiles === undefined ? {} : { editorFiles: settings.editorFiles }),
    input: Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    output: Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    ...(permissionTimeoutMs === undefined ? {} : { permissionTimeoutMs }),
  });
}
