// Keeps the key ring in step with the key store file (or directory of files) without a restart: it
// watches the file's directory, or the directory, never a file (Kubernetes swaps a `..data` symlink,
// and a watch on the file goes silent after the first swap), reacts only to events about the store's
// own files (the store, the secret files it names, `..data`), debounces bursts of events, re-reads on
// a timer as a backstop, and reloads on demand (SIGHUP). A store that does not validate whole never
// replaces the last good one, and is warned about once for as long as the same broken files stay.
// Files are read asynchronously, one reload at a time: a reload asked for while one runs runs after
// it. "Changed" covers the secret files the store names as well as the store's own text, and is judged
// by a digest of everything read, so neither the text nor a secret is kept between reloads.
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from '../observability/logger.js';
import type { KeyRing, ReloadResult } from './key-ring.js';
import { listDirectory as listFileSystemDirectory } from '../files/directory.js';
import type { KeyStoreFiles } from './parse-key-store.js';
import { isKeyStoreFileName, readKeyStorePath } from './read-key-store-path.js';
import { warnOfExpiringKeys, type ExpiryWarningState } from './expiry-warnings.js';

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
  readonly expiryWarningDays: number;
  /** The profiles the sidecar signs with: the only ones whose keys its log lines name. */
  readonly profiles: ReadonlySet<string>;
}

export interface KeyStoreReloader {
  /** Reads and, when it validates, swaps in the file: now, or after the reload under way. */
  reload(reason: string): Promise<ReloadResult>;
  start(): void;
  stop(): void;
}

export function createKeyStoreReloader(options: ReloaderOptions): KeyStoreReloader {
  const { path, ring, logger } = options;
  const listDirectory = options.listDirectory ?? listFileSystemDirectory;
  // A directory store is watched itself (the kubelet swaps its `..data`); a file, through its directory.
  let watched: string | null = null;
  let lastDigest: string | null = null;
  // The digest of the broken files and their problems last warned about: the same state is not warned again.
  let lastFailure: string | null = null;
  // The names, in the watched directory, of the files the last reload read or tried to.
  let namesRead = new Set<string>();
  let watcher: FSWatcher | null = null;
  let debounce: NodeJS.Timeout | undefined;
  let interval: NodeJS.Timeout | undefined;
  const warnings: ExpiryWarningState = new Map();
  let queue: Promise<unknown> = Promise.resolve();

  function reload(reason: string): Promise<ReloadResult> {
    const run = queue.then(() => reloadNow(reason));
    queue = run.catch(() => undefined);
    return run;
  }

  async function reloadNow(reason: string): Promise<ReloadResult> {
    const now = options.now();
    // Every file read for this store (the store, then its secret files), each framed by path and length.
    const inputs = createHash('sha256');
    const read = new Set<string>();
    const readFile = async (file: string, maxBytes: number): Promise<string> => {
      read.add(file);
      const text = await options.readFile(file, maxBytes);
      inputs.update(`${file}\0${text.length}\0`).update(text);
      return text;
    };
    // Whether the store is a directory decides what is watched: known from the first read on.
    const list = async (dir: string): Promise<string[] | null> => {
      const entries = await listDirectory(dir);
      if (dir === path) watched = entries === null ? dirname(path) : path;
      return entries;
    };
    const parsed = await readKeyStorePath(path, { readFile, listDirectory: list });
    namesRead = new Set([...read].filter((file) => dirname(file) === watched).map((file) => basename(file)));
    const digest = inputs.digest('hex');
    if (!parsed.ok) return fail(parsed.problems, reason, now, digest);
    lastFailure = null;
    // The same files as the store in use are a recovery, not "unchanged", after a failed load (a bad
    // edit reverted): the ring then records the success and /readyz drops the stale error.
    if (digest === lastDigest && ring.store() !== null && ring.status().lastError === null) return 'unchanged';
    lastDigest = digest;
    ring.replace(parsed.store, now);
    const keys = [...parsed.store.profiles.values()].reduce((sum, p) => sum + p.keys.length, 0);
    logger.info('key store loaded', { reason, profiles: parsed.store.profiles.size, keys });
    for (const warning of parsed.warnings) logger.warn('key store loaded with a likely mistake', { warning });
    warnOfExpiringKeys(parsed.store, options.profiles, now, options.expiryWarningDays, warnings, logger);
    return 'success';
  }

  function fail(problems: readonly string[], reason: string, now: number, inputs: string): ReloadResult {
    ring.recordFailure(problems, now);
    const state = createHash('sha256').update(inputs).update(problems.join('\0')).digest('hex');
    if (state === lastFailure) return 'failure';
    lastFailure = state;
    const keepingLastGood = ring.store() !== null;
    const event = keepingLastGood
      ? 'key store not loaded; keeping the last good keys'
      : 'key store not loaded; nothing to sign with until it loads';
    logger.warn(event, { reason, path, problems: problems.join('; '), keepingLastGood });
    return 'failure';
  }

  /**
   * Whether an event about `name` in the watched directory may change the store: the kubelet's `..data`
   * swap, a file the last reload read, the store file itself, or a file a directory store would read.
   * A platform without the name (null) leaves it unknown, so it counts.
   */
  function concernsStore(name: string | null): boolean {
    if (name === null) return true;
    if (name === '..data' || namesRead.has(name)) return true;
    return watched === path ? isKeyStoreFileName(name) : name === basename(path);
  }

  function schedule(_event: string, name: string | null): void {
    if (!concernsStore(name)) return;
    clearTimeout(debounce);
    debounce = setTimeout(() => void reload('file change'), options.debounceMs);
    debounce.unref();
  }

  function ensureWatch(): void {
    if (watcher || watched === null) return;
    try {
      // Any event in the directory: the key store, a secret file beside it, or a `..data` swap.
      watcher = watch(watched, { persistent: false }, schedule);
      watcher.on('error', (error) => {
        logger.warn('key store watch failed; the timer still re-reads it', {
          errorCode: (error as NodeJS.ErrnoException).code ?? 'unknown',
        });
        watcher?.close();
        watcher = null;
      });
    } catch (error) {
      logger.warn('cannot watch the key store directory; the timer still re-reads it', {
        errorCode: (error as NodeJS.ErrnoException).code ?? 'unknown',
      });
    }
  }

  return {
    reload,
    start() {
      if (watched !== null) ensureWatch();
      else
        void listDirectory(path).then((entries) => {
          watched = entries === null ? dirname(path) : path;
          ensureWatch();
        });
      interval = setInterval(() => {
        ensureWatch();
        void reload('timer').then((result) => {
          const store = ring.store();
          if (result !== 'failure' && store)
            warnOfExpiringKeys(store, options.profiles, options.now(), options.expiryWarningDays, warnings, logger);
        });
      }, options.intervalMs);
      interval.unref();
    },
    stop() {
      clearTimeout(debounce);
      clearInterval(interval);
      watcher?.close();
      watcher = null;
    },
  };
}
