// `npm run corpus -- DIR...`: every manifest file under the directories through `inject` and the
// webhook, checked as test/helpers/manifest-corpus.ts describes; one line per file that fails, a count
// per outcome, exit 1 when any file failed. For corpora of other projects' manifests kept outside git.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { kubeTool } from '../helpers/k8s-tools.js';
import { startInjectorStack } from '../helpers/injector-stack.js';
import { checkManifestFile, type CorpusOutcome } from '../helpers/manifest-corpus.js';
import { CORPUS_INJECT_ARGS } from '../helpers/corpus-settings.js';
import { DEFAULTS } from '../helpers/injection.js';

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)))
    .filter((file) => /\.(ya?ml|json)$/.test(file));
}

const closers: (() => Promise<void>)[] = [];
const injector = await startInjectorStack({ teardown: (close) => void closers.push(close) }, DEFAULTS);
const kubectl = kubeTool('kubectl');
const counts: Record<CorpusOutcome | 'failed', number> = {
  injected: 0,
  refused: 0,
  untouched: 0,
  'not-a-manifest': 0,
  failed: 0,
};
for (const file of process.argv.slice(2).flatMap(filesUnder)) {
  const result = await checkManifestFile(file, { kubectl, injector, injectArgs: CORPUS_INJECT_ARGS });
  counts[result.outcome] += 1;
  if (process.env.CORPUS_VERBOSE)
    process.stdout.write(`${result.outcome} ${file}${result.detail ? `: ${result.detail}` : ''}\n`);
  if (result.failures.length > 0) {
    counts.failed += 1;
    process.stdout.write(`FAIL ${file}\n  ${result.failures.join('\n  ')}\n`);
  }
}
for (const close of closers) await close();
process.stdout.write(
  `${Object.entries(counts)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ')}\n`,
);
process.exitCode = counts.failed > 0 ? 1 : 0;
