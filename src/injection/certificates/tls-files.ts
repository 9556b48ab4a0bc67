// The webhook's certificate and key, read from files and re-read when they change: cert-manager and
// the kubelet renew them by swapping a Secret volume's `..data` symlink, so the directory is watched,
// with a timer as a backstop. A pair that does not load (half-written, mismatched) never replaces the
// one in use.
import { dirname } from 'node:path';
import { describeFileProblem, FILE_LIMITS } from '../../files/regular-file.js';
import type { Logger } from '../../observability/logger.js';
import { deadlineAfter, reportChanges, startLastGoodReload, StalledRead } from '../../reload/last-good-reload.js';
import { watchDirectories } from '../../reload/watch-directories.js';
import { loadPemPair, type TlsPair } from './tls-pair.js';

export type { TlsPair } from './tls-pair.js';

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly readFile: (path: string, maxBytes: number) => Promise<string>;
}

type PemTexts = { ok: true; cert: string; key: string } | { ok: false; problem: string };

/** The text of both files, or why one cannot be read (never the files' text). */
async function readPemTexts(files: TlsFiles): Promise<PemTexts> {
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
  return { ok: true, cert, key };
}

function pairOf(files: TlsFiles, texts: PemTexts): { ok: true; pair: TlsPair } | { ok: false; problem: string } {
  if (!texts.ok) return texts;
  const loaded = loadPemPair(texts.cert, texts.key);
  return loaded.ok
    ? loaded
    : { ok: false, problem: `${loaded.which === 'cert' ? files.certFile : files.keyFile}: ${loaded.problem}` };
}

/** The pair in the files, or why it cannot be used (never the files' text). */
export async function loadTlsPair(
  files: TlsFiles,
): Promise<{ ok: true; pair: TlsPair } | { ok: false; problem: string }> {
  return pairOf(files, await readPemTexts(files));
}

/** Watches the files and hands every new pair that loads to `use`; returns a stop function. */
export function watchTlsFiles(
  files: TlsFiles,
  options: {
    logger: Logger;
    use: (pair: TlsPair) => void;
    intervalMs: number;
    /** A read of the files not done after this long is given up until the next trigger. */
    stalledAfterMs: number;
    current: TlsPair;
  },
): () => void {
  const { logger, current } = options;
  const reload = startLastGoodReload<PemTexts, TlsPair, string>({
    initial: { input: { ok: true, cert: current.cert, key: current.key }, value: current },
    read: () => readPemTexts(files),
    parse: (texts) => {
      const loaded = pairOf(files, texts);
      return loaded.ok ? { ok: true, value: loaded.pair } : { ok: false, failure: loaded.problem };
    },
    sameInput: (a, b) => a.ok && b.ok && a.cert === b.cert && a.key === b.key,
    failureOf: (error) => (error instanceof StalledRead ? `${files.certFile}: ${error.message}` : String(error)),
    triggers: (read) =>
      watchDirectories([dirname(files.certFile), dirname(files.keyFile)], read, {
        debounceMs: 200,
        intervalMs: options.intervalMs,
      }),
    deadline: deadlineAfter(options.stalledAfterMs),
    settled: reportChanges({
      loaded: (pair) => {
        options.use(pair);
        logger.info('webhook certificate reloaded', { validTo: pair.validTo });
      },
      rejected: (problem) => logger.warn('webhook certificate not reloaded; keeping the one in use', { problem }),
    }),
  });
  return reload.stop;
}
