import type { Logger } from '@weir/core';

/**
 * A logger shaped like pino's for the harness and its plugins: warnings and errors become one
 * `[warn] ...` line each (a skipped MCP tool, a failed save), debug and info lines show only with
 * `--debug`. Never throws.
 */
export function cliLogger(write: (line: string) => void, debug: boolean, bindings: Record<string, unknown> = {}): Logger {
  const line = (level: string) => (objOrMessage: unknown, ...rest: unknown[]) => {
    try {
      const message = typeof objOrMessage === 'string' ? objOrMessage : typeof rest[0] === 'string' ? rest[0] : '';
      const fields = typeof objOrMessage === 'object' && objOrMessage !== null ? objOrMessage : undefined;
      const who = typeof bindings.plugin === 'string' ? `${bindings.plugin}: ` : '';
      const extra = debug && fields !== undefined ? ` ${safeJson(fields)}` : '';
      write(`[${level}] ${who}${message}${extra}`.trimEnd());
    } catch {
      // A log line must never break a turn.
    }
  };
  const drop = () => undefined;
  return {
    debug: debug ? line('debug') : drop,
    info: debug ? line('info') : drop,
    warn: line('warn'),
    error: line('error'),
    child: (more) => cliLogger(write, debug, { ...bindings, ...more }),
  };
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (item instanceof Error ? item.message : item));
  } catch {
    return '';
  }
}
