// Asks for a read when something changes in the given directories, a burst of events once, and on a
// timer as a backstop: the kubelet updates a Secret or ConfigMap volume by swapping its `..data`
// symlink, which a watch on the file itself stops seeing after the first swap. A watch that fails is
// opened again at the next tick of the timer. Neither the watches nor the timers hold the process. An
// input no directory holds (an API's objects) is read on the timer alone.
import { watch, type FSWatcher } from 'node:fs';

/** Why a read is asked for. */
export type WatchCause = 'file change' | 'timer';

export interface DirectoryWatchOptions {
  readonly debounceMs: number;
  readonly intervalMs: number;
  /**
   * Whether an event about `name` in `dir` may change what is read; every event does when omitted. An
   * event without a name (some platforms give none) always does.
   */
  readonly concerns?: (dir: string, name: string) => boolean;
  /** A directory that cannot be watched (`opening`), or whose watch failed (`watching`): the timer still reads. */
  readonly watchFailed?: (failure: {
    readonly dir: string;
    readonly when: 'opening' | 'watching';
    readonly error: unknown;
  }) => void;
}

/** Returns a stop function. */
export function watchDirectories(
  dirs: Iterable<string>,
  read: (cause: WatchCause) => void,
  options: DirectoryWatchOptions,
): () => void {
  let debounce: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    clearTimeout(debounce);
    debounce = setTimeout(() => read('file change'), options.debounceMs);
    debounce.unref();
  };
  const watchers = new Map<string, FSWatcher | null>();
  const open = (dir: string): void => {
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || options.concerns === undefined || options.concerns(dir, name)) schedule();
      });
      watcher.on('error', (error) => {
        watcher.close();
        watchers.set(dir, null);
        options.watchFailed?.({ dir, when: 'watching', error });
      });
      watchers.set(dir, watcher);
    } catch (error) {
      watchers.set(dir, null);
      options.watchFailed?.({ dir, when: 'opening', error });
    }
  };
  for (const dir of new Set(dirs)) open(dir);
  const timer = setInterval(() => {
    for (const [dir, watcher] of watchers) if (watcher === null) open(dir);
    read('timer');
  }, options.intervalMs);
  timer.unref();
  return () => {
    clearTimeout(debounce);
    clearInterval(timer);
    for (const watcher of watchers.values()) watcher?.close();
    watchers.clear();
  };
}

/** Asks for a read on a timer alone, for an input no directory holds (an API's objects); returns a stop function. */
export function everyInterval(read: (cause: WatchCause) => void, intervalMs: number): () => void {
  const timer = setInterval(() => read('timer'), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
