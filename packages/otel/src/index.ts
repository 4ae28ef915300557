export { INSTRUMENTATION_SCOPE, otel } from './otel.js';
export type { OtelOptions, OtelPlugin } from './otel.js';
export type { TraceLogFields } from './log-fields.js';
export { ATTR, METRIC, SEMCONV_VERSION } from './semconv.js';
