import type * as OtelApi from '@opentelemetry/api';

/** The OpenTelemetry API module. */
export type Api = typeof OtelApi;

let api: Promise<Api> | undefined;

/**
 * Loads `@opentelemetry/api` once, when the plugin is first set up: importing `@weir/otel` loads
 * nothing (cold start). A missing peer is a clear error naming the package to install.
 */
export function loadApi(): Promise<Api> {
  api ??= import('@opentelemetry/api').catch((error: unknown) => {
    api = undefined;
    throw new Error('@weir/otel needs @opentelemetry/api (1.9.x on Node 20): npm install @opentelemetry/api@~1.9.0', { cause: error });
  });
  return api;
}
