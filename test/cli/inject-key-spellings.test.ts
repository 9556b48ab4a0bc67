// `inject` judges what kubectl reads, however the manifest spells it. A key written with a YAML escape
// (`"c\u006Fntainers"`), single-quoted, as an explicit key, across a line escaped in quotes, in flow
// style, or as `!!binary` is `containers` to kubectl; each workload so written gets the sidecar, says
// so on stderr, and kubectl reads the output back with exactly one sidecar. `uninject` gives back
// what kubectl read before.
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { CORPUS_INJECT_ARGS } from '../helpers/corpus-settings.js';
import { kubeTool, type K8sObject } from '../helpers/k8s-tools.js';
import { kubectlRead } from '../helpers/manifest-corpus.js';

/** How each Deployment's pod spec writes its containers: all of them kubectl reads as `containers`. */
const SPELLINGS: Readonly<Record<string, string>> = {
  'unicode-escape': '      "c\\u006Fntainers":\n      - {name: app, image: "example/app:1"}\n',
  'hex-escape': '      "\\x63ontainers":\n      - {name: app, image: "example/app:1"}\n',
  'long-escape': '      "\\U00000063ontainers":\n      - {name: app, image: "example/app:1"}\n',
  'single-quoted': '      \'containers\':\n      - {name: app, image: "example/app:1"}\n',
  'explicit-key': '      ? containers\n      : - {name: app, image: "example/app:1"}\n',
  'escaped-line-break': '      ? "contai\\\n        ners"\n      : - {name: app, image: "example/app:1"}\n',
  binary: '      !!binary Y29udGFpbmVycw==:\n      - {name: app, image: "example/app:1"}\n',
  'flow-escape': '      {"c\\u006fntainers": [{name: app, image: "example/app:1"}]}\n',
};

const deployment = (name: string, containers: string): string =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    `metadata: {name: ${name}}`,
    'spec:',
    `  selector: {matchLabels: {app: ${name}}}`,
    '  template:',
    `    metadata: {labels: {app: ${name}}}`,
    `    spec:${containers.startsWith('      {') ? ` ${containers.trimStart()}` : `\n${containers}`}`,
  ].join('\n');

const sidecars = (object: K8sObject): number => {
  const spec = (object.spec as { template: { spec: Record<string, { name: string }[] | undefined> } }).template.spec;
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])].filter((c) => c.name === 'sfd-sidecar').length;
};

test('every spelling kubectl reads as containers gets the sidecar, and kubectl reads it back', async (t) => {
  const kubectl = kubeTool('kubectl');
  const text = Object.entries(SPELLINGS)
    .map(([name, containers]) => deployment(name, containers))
    .join('---\n');
  const before = await kubectlRead(kubectl, text);
  t.not(before, null, 'kubectl reads every spelling');
  t.deepEqual(
    before!.map((object) => Object.keys((object.spec as { template: { spec: object } }).template.spec)),
    Object.keys(SPELLINGS).map(() => ['containers']),
    'as containers',
  );
  const run = await runCli(['inject', ...CORPUS_INJECT_ARGS, '-'], { input: text });
  t.is(run.code, 0, run.stderr);
  for (const name of Object.keys(SPELLINGS)) t.regex(run.stderr, new RegExp(`^injected Deployment/${name} `, 'm'));
  const after = await kubectlRead(kubectl, run.stdout);
  t.deepEqual(
    after?.map((object) => [object.metadata.name, sidecars(object)]),
    Object.keys(SPELLINGS).map((name) => [name, 1]),
  );
  const back = await runCli(['uninject', '-'], { input: run.stdout });
  t.is(back.code, 0, back.stderr);
  t.deepEqual(await kubectlRead(kubectl, back.stdout), before);
});
