import { createHarness, defineTool, ToolCallError, type Harness, type ToolDefinition } from '@weir/core';

/** A harness holding `tools`. */
export function harnessWith(...tools: ToolDefinition[]): Harness {
  const harness = createHarness();
  for (const tool of tools) harness.tools.register(tool);
  return harness;
}

/** `read_file` over an in-memory folder; records every path its body was run with. */
export function readFileTool(files: Record<string, string>, runs: string[] = []) {
  return defineTool({
    name: 'read_file',
    description: 'Reads a text file.',
    tier: 'read-only',
    parameters: { type: 'object', properties: { path: { type: 'string', minLength: 1 } }, required: ['path'], additionalProperties: false },
    execute: ({ path }) => {
      runs.push(path);
      const content = files[path];
      if (content === undefined) throw new ToolCallError('NOT_FOUND', `${path} does not exist. List the folder to see which files do.`);
      return content;
    },
  });
}

/** A tool whose body waits for `release(id)` or for its signal; records starts, ends and the peak of calls at once. */
export function gateTool() {
  const waiting = new Map<string, () => void>();
  const log: string[] = [];
  const signals: AbortSignal[] = [];
  let active = 0;
  let peak = 0;
  const started = new Map<string, () => void>();
  const tool = defineTool({
    name: 'gate',
    description: 'Waits until released.',
    tier: 'read-only',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    execute: ({ id }, exec) =>
      new Promise<string>((resolve, reject) => {
        active += 1;
        peak = Math.max(peak, active);
        log.push(`start ${id}`);
        signals.push(exec.signal);
        const finish = () => {
          active -= 1;
          log.push(`end ${id}`);
        };
        waiting.set(id, () => {
          finish();
          resolve(`released ${id}`);
        });
        exec.signal.addEventListener('abort', () => {
          finish();
          reject(exec.signal.reason);
        });
        started.get(id)?.();
      }),
  });
  return {
    tool,
    log,
    signals,
    get peak() {
      return peak;
    },
    release: (id: string) => waiting.get(id)!(),
    /** Resolves once the body of `id` is running. */
    started: (id: string) => new Promise<void>((resolve) => (log.includes(`start ${id}`) ? resolve() : started.set(id, resolve))),
  };
}
