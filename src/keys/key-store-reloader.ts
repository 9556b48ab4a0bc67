// Keeps the key ring in step with the key store file (or directory of files) without a restart, on the
// last-good reload loop: a store that does not validate whole never replaces the last good one, a read
// that hangs is given up at its deadline so that the next one runs, and reads never overlap. It watches
// the file's directory, or the directory, never a file (Kubernetes swaps a `..data` symlink, and a
// watch on the file goes silent after the first swap), reacts only to events about the store's own
// files (the store, the secret files its last read touched, `..data`), re-reads on a timer as a
// backstop, and reloads on demand (SIGHUP).
import { basename, dirname } from 'node:path';
import type { Logger } from '../observability/logger.js';
import { describeFileProblem } from '../files/regular-file.js';
import { listDirectory as listFileSystemDirectory } from '../files/directory.js';
import { deadlineAfter, startLastGoodReload, StalledRead } from '../reload/last-good-reload.js';
import { watchDirectories } from '../reload/watch-directories.js';
import type { KeyRing, ReloadResult } from './key-ring.js';
import type { KeyStoreFiles } from './parse-key-store.js';
import { isKeyStoreFileName } from './read-key-store-path.js';
import { NOTHING_READ, readKeyStoreSnapshot, type KeyStoreSnapshot } from './read-key-store-snapshot.js';
import { recordKeyStoreOutcomes, RELOAD_RESULTS } from './record-key-store-outcome.js';

/** A read of a few small files not done after this long is hung (a stalled network file system). */
export const KEY_STORE_STALLED_AFTER_MS = 30_000;

export interface ReloaderOptions extends KeyStoreFiles {
  /** The key store file, or a directory of them. */
  readonly path: string;
  /** The entries of a directory, or null when the path is not one (the file system's by default). */
  readonly listDirectory?: (path: string) => Promise<string[] | null>;
  readonly ring: KeyRing;
  readonly logger: Logger;
  readonly now: () => number;
  readonly debounceMs: number;
  readonly intervalMs: number;
  /** A read of the store not done after this long is given up (KEY_STORE_STALLED_AFTER_MS when omitted). */
  readonly stalledAfterMs?: number;
  readonly expiryWarningDays: number;
  /** The profiles the sidecar signs with: the only ones whose keys its log lines name. */
  readonly profiles: ReadonlySet<string>;
}

export interface KeyStoreReloader {
  /** Reads and, when it validates, swaps in the store: now, or after the read under way. */
  reload(reason: string): Promise<ReloadResult>;
  start(): void;
  stop(): void;
}

export function createKeyStoreReloader(options: ReloaderOptions): KeyStoreReloader {
  const { path } = options;
  const listDirectory = options.listDirectory ?? listFileSystemDirectory;
  const record = recordKeyStoreOutcomes(options);
  // The last read taken: which files an event may concern.
  let last: KeyStoreSnapshot = NOTHING_READ;
  const loop = startLastGoodReload({
    initial: { input: NOTHING_READ, value: null },
    read: () => readKeyStoreSnapshot(path, { readFile: options.readFile, listDirectory }),
    parse: ({ parsed }) => (parsed.ok ? { ok: true, value: parsed.store } : { ok: false, failure: parsed.problems }),
    sameInput: (a, b) => a.digest === b.digest,
    failureOf: (error) => [
      `(file): ${path}: ${error instanceof StalledRead ? error.message : describeFileProblem(error)}`,
    ],
    deadline: deadlineAfter(options.stalledAfterMs ?? KEY_STORE_STALLED_AFTER_MS),
    settled: (outcome, reason) => {
      if (outcome.input) last = outcome.input;
      record(outcome, reason);
    },
  });
  let stopWatch: (() => void) | undefined;
  let stopped = false;

  const watch = (directory: string): void => {
    if (stopped || stopWatch) return;
    stopWatch = watchDirectories([directory], (cause) => void loop.read(cause), {
      debounceMs: options.debounceMs,
      intervalMs: options.intervalMs,
      concerns: (_dir, name) => concernsStore(path, directory, last, name),
      watchFailed: ({ when, error }) =>
        options.logger.warn(
          when === 'opening'
            ? 'cannot watch the key store directory; the timer still re-reads it'
            : 'key store watch failed; the timer still re-reads it',
          { errorCode: (error as NodeJS.ErrnoException).code ?? 'unknown' },
        ),
    });
  };

  return {
    reload: async (reason) => {
      const result = await loop.read(reason);
      return result.kind === 'stopped' ? 'unchanged' : RELOAD_RESULTS[result.kind];
    },
    start() {
      if (last !== NOTHING_READ) return watch(last.directory);
      // Whether the store is a directory decides what is watched: known from the first read on.
      void listDirectory(path).then((entries) => watch(entries === null ? dirname(path) : path));
    },
    stop() {
      stopped = true;
      stopWatch?.();
      loop.stop();
    },
  };
}

/**
 * Whether an event about `name` in the watched directory may change the store: the kubelet's `..data`
 * swap, a file the last read touched, the store file itself, or a file a directory store would read.
 */
function concernsStore(path: string, watched: string, last: KeyStoreSnapshot, name: string): boolean {
  if (name === '..data' || last.names.has(name)) return true;
  return watched === path ? isKeyStoreFileName(name) : name === basename(path);
}
