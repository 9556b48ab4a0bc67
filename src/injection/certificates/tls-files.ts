// The webhook's certificate and key, read from files and re-read when they change: cert-manager and
// the kubelet renew them by swapping a Secret volume's `..data` symlink, so the directory is watched,
// with a timer as a backstop. A pair that does not load (half-written, mismatched) never replaces the
// one in use.
import { dirname } from 'node:path';
import { watchDirectories } from '../../files/watch-directories.js';
import { describeFileProblem, FILE_LIMITS } from '../../files/regular-file.js';
import type { Logger } from '../../observability/logger.js';
import { loadPemPair, type TlsPair } from './tls-pair.js';

export type { TlsPair } from './tls-pair.js';

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly readFile: (path: string, maxBytes: number) => Promise<string>;
}

/** The pair in the files, or why it cannot be used (never the files' text). */
export async function loadTlsPair(
  files: TlsFiles,
): Promise<{ ok: true; pair: TlsPair } | { ok: false; problem: string }> {
  const read = async (path: string): Promise<string | { problem: string }> => {
    try {
      return await files.readFile(path, FILE_LIMITS.caBundle);
    } catch (error) {
      return { problem: `${path}: ${describeFileProblem(error)}` };
    }
  };
  const [cert, key] = await Promise.all([read(files.certFile), read(files.keyFile)]);
  if (typeof cert !== 'string') return { ok: false, problem: cert.problem };
  if (typeof key !== 'string') return { ok: false, problem: key.problem };
  const loaded = loadPemPair(cert, key);
  return loaded.ok
    ? loaded
    : { ok: false, problem: `${loaded.which === 'cert' ? files.certFile : files.keyFile}: ${loaded.problem}` };
}

/** Watches the files and hands every new pair that loads to `use`; returns a stop function. */
export function watchTlsFiles(
  files: TlsFiles,
  options: { logger: Logger; use: (pair: TlsPair) => void; intervalMs: number; current: TlsPair },
): () => void {
  let current = options.current;
  const reload = async (): Promise<void> => {
    const loaded = await loadTlsPair(files);
    if (!loaded.ok)
      return void options.logger.warn('webhook certificate not reloaded; keeping the one in use', {
        problem: loaded.problem,
      });
    if (loaded.pair.cert === current.cert && loaded.pair.key === current.key) return;
    current = loaded.pair;
    options.use(loaded.pair);
    options.logger.info('webhook certificate reloaded', { validTo: loaded.pair.validTo });
  };
  return watchDirectories([dirname(files.certFile), dirname(files.keyFile)], () => void reload(), {
    debounceMs: 200,
    intervalMs: options.intervalMs,
  });
}
