// The sidecar's heap cap and memory floor have one home, src/injection/sidecar-memory.ts. The files that
// cannot import it (the image's NODE_OPTIONS, `npm start`, the chart's default limit) must say the same,
// so that a cap raised in one place cannot leave a limit the sidecar no longer fits in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { parse } from 'yaml';
import { shippedNodeOptions } from '../../../bench/shipped-node-options.js';
import { INJECTED_SIDECAR_SETTINGS } from '../../../src/injection/injected-sidecar-settings.js';
import { MIN_MEMORY_LIMIT, SIDECAR_HEAP_MIB } from '../../../src/injection/sidecar-memory.js';
import { REPO_ROOT } from '../../helpers/repo-root.js';

const CHART_VALUES = join(REPO_ROOT, 'helm/sfd-sidecar/values.yaml');

/** Every --max-old-space-size of a Node command line, in MiB. */
const heapCaps = (options: string): number[] =>
  [...options.matchAll(/--max-old-space-size=(\d+)/g)].map((match) => Number(match[1]));

test("the image's NODE_OPTIONS caps the heap at the code's value", (t) => {
  t.deepEqual(heapCaps(shippedNodeOptions(REPO_ROOT)), [SIDECAR_HEAP_MIB]);
});

test('npm start caps the heap at the same value', (t) => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  t.deepEqual(heapCaps(manifest.scripts.start ?? ''), [SIDECAR_HEAP_MIB]);
});

test("the setting's default memory limit is the floor the heap cap sets", (t) => {
  t.is(INJECTED_SIDECAR_SETTINGS.sidecarMemoryLimit.default, MIN_MEMORY_LIMIT);
});

test("the chart's default sidecar memory limit, and what its comment says of it, are the code's", (t) => {
  const text = readFileSync(CHART_VALUES, 'utf8');
  const values = parse(text) as { sidecar: { resources: { limits: { memory: string } } } };
  t.is(values.sidecar.resources.limits.memory, MIN_MEMORY_LIMIT);
  t.true(
    text.includes(`${SIDECAR_HEAP_MIB} MiB heap: ${MIN_MEMORY_LIMIT} at least`),
    'the comment on sidecar.resources names the heap cap and the floor',
  );
});
