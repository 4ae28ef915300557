import type { Harness } from '../../harness.js';
import { runtimeOf } from '../../harness.js';
import { HOOK_NAMES } from '../hooks.js';

/**
 * Everything a plugin can change in a harness, by identity: the registered tools, each hook's
 * taps, the guards, who holds the approval responder and the sandbox, and the loaded plugins.
 */
export interface HarnessSnapshot {
  readonly tools: readonly (readonly [string, unknown])[];
  readonly taps: Readonly<Record<string, readonly unknown[]>>;
  readonly guards: readonly unknown[];
  readonly approvalOwner: string | undefined;
  readonly sandboxOwner: string | undefined;
  readonly plugins: readonly string[];
}

/** Takes a snapshot of `harness`'s state (a copy of the lists, holding the same objects). */
export function snapshotHarness(harness: Harness): HarnessSnapshot {
  const runtime = runtimeOf(harness);
  return {
    tools: runtime.tools.names().map((name) => [name, runtime.tools.get(name)] as const),
    taps: Object.fromEntries(HOOK_NAMES.map((name) => [name, [...runtime.hooks[name].taps]])),
    guards: [...runtime.guards.list()],
    approvalOwner: runtime.approval.owner,
    sandboxOwner: runtime.sandbox.owner,
    plugins: harness.plugins(),
  };
}

/** What differs between two snapshots, one line per difference; empty when they are the same. */
export function diffSnapshots(before: HarnessSnapshot, after: HarnessSnapshot): string[] {
  const differences: string[] = [];
  const compareList = (label: string, a: readonly unknown[], b: readonly unknown[], show: (item: unknown) => string) => {
    if (a.length !== b.length || a.some((item, index) => item !== b[index])) {
      differences.push(`${label}: before [${a.map(show).join(', ')}], after [${b.map(show).join(', ')}]`);
    }
  };
  compareList('tools', before.tools.map(([, tool]) => tool), after.tools.map(([, tool]) => tool), (tool) => (tool as { name: string }).name);
  for (const stage of HOOK_NAMES) {
    compareList(`${stage} taps`, before.taps[stage] ?? [], after.taps[stage] ?? [], (tap) => (tap as { name: string }).name);
  }
  compareList('guards', before.guards, after.guards, (entry) => (entry as { owner: string }).owner);
  if (before.approvalOwner !== after.approvalOwner) differences.push(`approval responder: before ${String(before.approvalOwner)}, after ${String(after.approvalOwner)}`);
  if (before.sandboxOwner !== after.sandboxOwner) differences.push(`sandbox: before ${String(before.sandboxOwner)}, after ${String(after.sandboxOwner)}`);
  compareList('plugins', before.plugins, after.plugins, String);
  return differences;
}
