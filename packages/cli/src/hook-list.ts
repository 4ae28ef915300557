import type { HookEntry } from '@weir/hooks';

/** `/hooks`: every hook read, where it came from, and whether it runs (and why not). */
export function hookListLines(hooks: readonly HookEntry[], label: (hook: HookEntry) => string): string[] {
  if (hooks.length === 0) return ['  no hooks (settings files: ~/.weir/settings.json, .weir/settings.json; .claude/settings.json with "compat": { "claude": true })'];
  return hooks.map((hook) => {
    const matcher = hook.matcher.source === undefined || hook.matcher.source === '' ? '' : ` [${hook.matcher.source}]`;
    const runs = hook.skipped === undefined ? `runs (timeout ${hook.timeoutMs / 1000} s${hook.failMode === 'open' ? ', fails open' : ''})` : hook.skipped;
    return `  ${hook.eventName}${matcher} ${label(hook)}\n      from ${hook.layer.file} (${hook.layer.name}): ${runs}`;
  });
}
