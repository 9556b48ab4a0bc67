// `inject` and `uninject` over manifests shaped to make a reader backtrack or trip: a vendor banner of
// `#` before a document, runs of `%` and of blanks, brackets nested deep, long lines of `-`, document
// markers by the thousand and thousands of empty documents, and annotation values (an upstream URL, a
// quantity) of hundreds of thousands of characters. Each finishes (ava's timeout is the only clock),
// injects the one Deployment or refuses it by name, leaves the rest as kubectl read it, and `uninject`
// gives back what kubectl read before.
import test from 'ava';
import { runCli } from '../helpers/cli-process.js';
import { CORPUS_INJECT_ARGS } from '../helpers/corpus-settings.js';
import { kubeTool, type K8sObject } from '../helpers/k8s-tools.js';
import { kubectlRead } from '../helpers/manifest-corpus.js';

const DEPLOYMENT = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: web}',
  'spec:',
  '  selector: {matchLabels: {app: web}}',
  '  template:',
  '    metadata: {labels: {app: web}}',
  '    spec:',
  '      containers:',
  '      - {name: web, image: "example/web:1"}',
  '',
].join('\n');

const configMap = (data: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata:\n${data}\n`;

/** The Deployment with an annotation on its pod template. */
const withAnnotation = (name: string, value: string): string =>
  DEPLOYMENT.replace('{labels: {app: web}}', `{labels: {app: web}, annotations: {${name}: "${value}"}}`);

/** A document, then the Deployment. */
const thenDeployment = (document: string): string => `${document}---\n${DEPLOYMENT}`;

const SHAPES: Readonly<Record<string, string>> = {
  'a banner of 200 # opening the file': `${'#'.repeat(200)}\n${DEPLOYMENT}`,
  'a banner of 200 # opening a later document': `${configMap('  a: b')}---\n${'#'.repeat(200)}\n${DEPLOYMENT}`,
  'comment lines of %': `${`# ${'%'.repeat(200)}\n`.repeat(50)}${DEPLOYMENT}`,
  'long runs of blanks': thenDeployment(`${' '.repeat(100_000)}\n${configMap(`  a: "${' '.repeat(100_000)}b"`)}`),
  'flow brackets nested deep': thenDeployment(configMap(`  a: "x"\nextra: ${'['.repeat(400)}${']'.repeat(400)}`)),
  'long lines of -': thenDeployment(
    configMap(`  rule: |\n    ${'-'.repeat(100_000)}\n  other: ${'-'.repeat(50_000)}x`),
  ),
  'thousands of empty documents': `${'---\n'.repeat(5000)}${DEPLOYMENT}${'---\n# nothing here\n'.repeat(2000)}`,
  'thousands of markers and comments before the workload': `${'# ---\n---\n'.repeat(3000)}${DEPLOYMENT}`,
  'an upstream URL of 300000 slashes': withAnnotation(
    'sfd-sidecar.io/upstream-url',
    `https://api.example/${'/'.repeat(300_000)}v1`,
  ),
};

const sidecars = (object: K8sObject): number => {
  const spec = (object.spec as { template: { spec: Record<string, { name: string }[] | undefined> } }).template.spec;
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])].filter((c) => c.name === 'sfd-sidecar').length;
};

for (const [shape, text] of Object.entries(SHAPES))
  test(`${shape}: inject and uninject finish and are right`, async (t) => {
    const kubectl = kubeTool('kubectl');
    const before = await kubectlRead(kubectl, text);
    t.not(before, null, 'kubectl reads it');
    const run = await runCli(['inject', ...CORPUS_INJECT_ARGS, '-'], { input: text });
    t.is(run.code, 0, run.stderr);
    t.regex(run.stderr, /^injected Deployment\/web /m);
    const after = (await kubectlRead(kubectl, run.stdout))!;
    t.deepEqual(
      after.map((object) => (object.kind === 'Deployment' ? sidecars(object) : object)),
      before!.map((object) => (object.kind === 'Deployment' ? 1 : object)),
    );
    const back = await runCli(['uninject', '-'], { input: run.stdout });
    t.is(back.code, 0, back.stderr);
    t.deepEqual(await kubectlRead(kubectl, back.stdout), before);
  });

test('a quantity of 300000 digits finishes, refused by name', async (t) => {
  const run = await runCli(['inject', ...CORPUS_INJECT_ARGS, '-'], {
    input: withAnnotation('sfd-sidecar.io/cpu-request', `${'1'.repeat(300_000)}m1`),
  });
  t.is(run.code, 1);
  t.is(run.stdout, '');
  t.regex(
    run.stderr,
    /^error: Deployment\/web \(stdin, document 1\): annotation sfd-sidecar\.io\/cpu-request: must be a CPU/m,
  );
});

test('brackets nested 5000 deep are refused by name, as too deep to read', async (t) => {
  const run = await runCli(['inject', ...CORPUS_INJECT_ARGS, '-'], {
    input: thenDeployment(configMap(`  a: "x"\nextra: ${'['.repeat(5000)}${']'.repeat(5000)}`)),
  });
  t.is(run.code, 1);
  t.is(run.stdout, '');
  t.regex(run.stderr, /^error: stdin, document 1: not valid YAML at line 1, column 1: .*collections nested too deep$/m);
});
