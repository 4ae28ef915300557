import { afterEach, beforeEach } from 'vitest';
import { assertNoMarker, createFsHarness, type FsHarness, type FsHarnessOptions } from './fs-harness.js';
import { createSentinelFixture, type SentinelFixture } from './sentinel-fixture.js';

/** What a scenario test gets: a fresh sentinel tree and a way to load tools-fs on it. */
export interface WorkspaceScenario {
  readonly fx: SentinelFixture;
  /** Loads tools-fs (write enabled by default) in a new harness; closed after the test. */
  harness(options?: FsHarnessOptions): Promise<FsHarness>;
}

/**
 * Registers `beforeEach`/`afterEach` so that every test of the file gets a fresh tree, and after
 * every test: harnesses closed, no result containing the sentinel marker, sentinels untouched and
 * nothing created outside the workspace. Call at the top of a test file or inside `describe`.
 */
export function useWorkspace(): WorkspaceScenario {
  let fx: SentinelFixture | undefined;
  const open: FsHarness[] = [];
  beforeEach(async () => {
    fx = await createSentinelFixture();
  });
  afterEach(async () => {
    const current = fx!;
    fx = undefined;
    try {
      for (const h of open.splice(0)) {
        await h.close();
        assertNoMarker(h.results, current.marker);
      }
      await current.verify();
    } finally {
      // Removed even when a check failed, so failing runs leave no trees behind.
      await current.cleanup();
    }
  });
  return {
    get fx() {
      if (fx === undefined) throw new Error('useWorkspace: only available inside a test');
      return fx;
    },
    async harness(options: FsHarnessOptions = {}) {
      const h = await createFsHarness(this.fx.root, { write: true, ...options });
      open.push(h);
      return h;
    },
  };
}
