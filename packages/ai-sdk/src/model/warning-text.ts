/** One line for an AI SDK call warning (v2's `unsupported-setting`/`unsupported-tool`, v3/v4's `unsupported`/`compatibility`, `other`). */
export function warningText(provider: string, warning: unknown): string {
  const w = (warning ?? {}) as Record<string, unknown>;
  const what = w.feature ?? w.setting ?? (w.tool as { name?: unknown } | undefined)?.name;
  const details = typeof w.details === 'string' ? `: ${w.details}` : '';
  if (typeof w.message === 'string') return `${provider}: ${w.message}`;
  return `${provider}: ${String(w.type ?? 'warning')} ${String(what ?? '')}${details}`.replace(/\s+:/, ':').trim();
}
