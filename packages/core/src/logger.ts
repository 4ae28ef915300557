type LogFn = (objOrMessage: unknown, ...rest: unknown[]) => void;

/** The part of pino's interface weir uses. A pino logger fits; so does any logger shaped like it. */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

const drop: LogFn = () => undefined;
const SILENT: Logger = Object.freeze({ debug: drop, info: drop, warn: drop, error: drop, child: () => SILENT });

/**
 * weir is silent unless given a logger: this one drops every entry, and its children are itself.
 * It is no pino instance, so importing core never loads pino (cold start); a caller who wants logs
 * passes their own pino (or compatible) logger. Never throws.
 */
export function silentLogger(): Logger {
  return SILENT;
}
