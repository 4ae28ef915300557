import type { Logger } from '@weir/core';

const ignore = () => {};

/**
 * The logger a store uses when given none: it drops everything. A plain object (no pino here): the
 * session package has no logging dependency of its own.
 */
export function silentLogger(): Logger {
  const logger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore, child: () => logger };
  return logger;
}
