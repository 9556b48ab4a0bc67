// Calls `reload` when something changes in the given directories, a burst of events once, and on a
// timer as a backstop: the kubelet updates a Secret or ConfigMap volume by swapping its `..data`
// symlink, which a watch on the file itself stops seeing after the first swap. Returns a stop function.
import { watch, type FSWatcher } from 'node:fs';

export function watchDirectories(
  dirs: Iterable<string>,
  reload: () => void,
  options: { readonly debounceMs: number; readonly intervalMs: number },
): () => void {
  let debounce: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    clearTimeout(debounce);
    debounce = setTimeout(reload, options.debounceMs);
    debounce.unref();
  };
  const watchers: FSWatcher[] = [];
  for (const dir of new Set(dirs)) {
    try {
      const watcher = watch(dir, { persistent: false }, schedule);
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    } catch {
      // The timer still calls reload.
    }
  }
  const timer = setInterval(reload, options.intervalMs);
  timer.unref();
  return () => {
    clearTimeout(debounce);
    clearInterval(timer);
    for (const watcher of watchers) watcher.close();
  };
}
