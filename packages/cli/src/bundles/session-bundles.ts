import type { Harness, Logger } from '@weir/core';
import type { HookRunRecord } from '@weir/hooks';
import { projectRecords, readBundleRecords, userRecords, type BundleScope } from './bundle-records.js';
import { loadBundle, type LoadedBundle } from './load-bundle.js';
import { readBundle } from './read-bundle.js';

export interface SessionBundlesOptions {
  readonly workspace: string;
  readonly env: NodeJS.ProcessEnv;
  /** A project's bundles are trusted like the project: listed, never run, until it is. */
  readonly projectTrusted: boolean;
  readonly logger?: Logger;
  readonly onHookRun?: (run: HookRunRecord) => void;
  readonly session?: () => { readonly id: string; readonly transcriptPath?: string } | undefined;
}

/** One recorded bundle in a session, loaded. */
export interface SessionBundle extends LoadedBundle {
  readonly scope: BundleScope;
}

/** The bundles `weir plugin add` recorded, as one session holds them. */
export interface SessionBundles {
  /** In load order: the user's, then the project's. */
  loaded(): readonly SessionBundle[];
  /**
   * Reads the records and loads each bundle (`fresh`: its tool modules imported again with the code
   * now on disk); one that fails is told to `say` and the others still load. Never rejects.
   */
  load(say: (line: string) => void, fresh?: boolean): Promise<void>;
  /** Unloads every bundle, last first. Never rejects. */
  unload(say?: (line: string) => void): Promise<void>;
}

/**
 * The session's plugin bundles: the user's `<weir home>/plugins.json`, then the project's
 * `.weir/plugins.json`, registered in `harness`. `/reload` unloads them and loads the records as
 * they are then, so a bundle removed since is gone and the harness is as it was without it.
 */
export function sessionBundles(harness: Harness, options: SessionBundlesOptions): SessionBundles {
  let loaded: SessionBundle[] = [];
  return {
    loaded: () => loaded,
    async load(say, fresh = false) {
      for (const [place, trusted] of [[userRecords(options.env), true], [projectRecords(options.workspace), options.projectTrusted]] as const) {
        let records;
        try {
          records = await readBundleRecords(place);
        } catch (error) {
          say(`[plugin] ${(error as Error).message}`);
          continue;
        }
        for (const record of records) {
          try {
            const bundle = await readBundle(record.root);
            const one = await loadBundle(bundle, harness, {
              projectDir: options.workspace,
              trusted,
              fresh,
              ...(options.logger === undefined ? {} : { logger: options.logger }),
              ...(options.onHookRun === undefined ? {} : { onHookRun: options.onHookRun }),
              ...(options.session === undefined ? {} : { session: options.session }),
            });
            loaded.push({ ...one, scope: place.scope });
            if (!trusted) say(`[plugin] ${bundle.name} (${place.file}) is not run: this folder is not trusted`);
          } catch (error) {
            say(`[plugin] ${record.name} (${record.root}) did not load: ${(error as Error).message}`);
          }
        }
      }
    },
    async unload(say) {
      while (loaded.length > 0) {
        const last = loaded[loaded.length - 1]!;
        try {
          await last.unload();
          say?.(`[reload] unloaded plugin bundle ${last.bundle.name}${last.tools.length > 0 ? ` (tools gone: ${last.tools.join(', ')})` : ''}`);
        } catch (error) {
          say?.(`[reload] plugin bundle ${last.bundle.name} did not unload cleanly: ${(error as Error).message}`);
        }
        loaded = loaded.slice(0, -1);
      }
    },
  };
}
