import { pino } from 'pino';

type LogFn = (objOrMessage: unknown, ...rest: unknown[]) => void;

/** The part of pino's interface weir uses. A pino logger fits; so does any logger shaped like it. */
export interface Logger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

/** weir is silent unless given a logger. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' }) as unknown as Logger;
}
