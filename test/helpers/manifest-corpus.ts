// Runs one manifest file through both paths of the injection and checks the results with tools that
// share no code with it: kubectl's own reader (what the API server would be sent), the Kubernetes
// schemas, fast-json-patch applying the webhook's patch, and the chart's admission policy evaluated by
// an independent CEL implementation over every pod the injection made. A file kubectl cannot read is not a
// manifest and is reported as such, not checked.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import { refusals, renderedPolicy, type PolicySpec } from './admission-policy.js';
import { runCli, runProcess } from './cli-process.js';
import type { InjectorStack } from './injector-stack.js';
import { validateObject, type K8sObject } from './k8s-tools.js';

export type CorpusOutcome = 'injected' | 'refused' | 'untouched' | 'not-a-manifest';

export interface CorpusResult {
  readonly outcome: CorpusOutcome;
  /** Every check that failed; empty when the file passed. */
  readonly failures: readonly string[];
  /** What inject said of a refused file. */
  readonly detail?: string;
}

export interface CorpusTools {
  readonly kubectl: string;
  readonly injector: InjectorStack;
  /** The flags `inject` runs with. */
  readonly injectArgs: readonly string[];
}

type Json = Record<string, unknown>;
type Template = { metadata?: { annotations?: Record<string, string>; labels?: Record<string, string> }; spec: Json };

const SIDECAR = 'sfd-sidecar';
/** The volumes injection adds: the key store, and the empty one over the service account token's path. */
const SIDECAR_VOLUMES = ['sfd-sidecar-keystore', 'sfd-sidecar-no-token'];
const TEMPLATE_PATHS: Record<string, readonly string[]> = {
  Pod: [],
  Deployment: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  ReplicationController: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
  Rollout: ['spec', 'template'],
  DeploymentConfig: ['spec', 'template'],
};

/** The objects as kubectl reads them (lists flattened), or null when kubectl cannot read the text. */
export async function kubectlRead(kubectl: string, text: string): Promise<K8sObject[] | null> {
  const dir = mkdtempSync(join(tmpdir(), 'sfd-corpus-'));
  const file = join(dir, /^\s*[[{]/.test(text) ? 'input.json' : 'input.yaml');
  writeFileSync(file, text);
  const run = await runProcess(kubectl, [
    'annotate',
    '--local',
    '-f',
    file,
    'corpus.sfd-sidecar.io/read=1',
    '-o',
    'json',
  ]);
  if (run.code !== 0) return null;
  try {
    // kubectl prints one indented object after another, each opening at the start of a line.
    return run.stdout
      .split(/\n(?=\{)/)
      .filter((part) => part.trim() !== '')
      .flatMap((part) => {
        const value = JSON.parse(part) as K8sObject & { items?: K8sObject[] };
        return value.kind === 'List' && Array.isArray(value.items) ? value.items : [value];
      });
  } catch {
    return null;
  }
}

export async function checkManifestFile(file: string, tools: CorpusTools): Promise<CorpusResult> {
  const text = readFileSync(file, 'utf8');
  const before = await kubectlRead(tools.kubectl, text);
  if (before === null) return { outcome: 'not-a-manifest', failures: [] };
  const failures: string[] = [];
  const run = await runCli(['inject', ...tools.injectArgs, file]);
  failures.push(...(await checkWebhook(before, tools.injector)));
  if (run.code === 1) {
    if (run.stdout !== '') failures.push('inject exited 1 but printed manifests');
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('error: '));
    if (errors.length === 0) failures.push('inject exited 1 without an error line');
    for (const line of errors)
      if (/not valid (YAML|JSON)/.test(line) && !/appears twice/.test(line))
        failures.push(`inject cannot read what kubectl reads: ${line}`);
    return { outcome: 'refused', failures, detail: errors.join(' | ') };
  }
  if (run.code !== 0)
    return { outcome: 'refused', failures: [...failures, `inject exited ${run.code}: ${run.stderr}`] };
  const injected = /^injected /m.test(run.stderr);
  if (!injected && run.stdout !== text) failures.push('nothing was injected, yet the text changed');
  const after = await kubectlRead(tools.kubectl, run.stdout);
  if (after === null) return { outcome: 'injected', failures: [...failures, 'kubectl cannot read the output'] };
  failures.push(...compareObjects(before, after));
  failures.push(...policyRefusals(after));
  const again = await runCli(['inject', ...tools.injectArgs, '-'], { input: run.stdout });
  if (again.code !== 0 || again.stdout !== run.stdout) failures.push('inject over its own output is not the same text');
  // The way back: uninject(inject(x)) is x as kubectl reads it, and a file without a sidecar is left as it is.
  const back = await runCli(['uninject', '-'], { input: run.stdout });
  const undone = back.code === 0 ? await kubectlRead(tools.kubectl, back.stdout) : null;
  if (undone === null) failures.push(`uninject failed on inject's output: ${back.stderr}`);
  else {
    const difference = fastJsonPatch.compare(before.map(asStored), undone.map(asStored));
    if (difference.length > 0)
      failures.push(`uninject(inject(x)) differs from x: ${JSON.stringify(difference.slice(0, 3))}`);
  }
  const untouched = await runCli(['uninject', file]);
  if (untouched.code !== 0 || untouched.stdout !== text) failures.push('uninject changed a file without a sidecar');
  return { outcome: injected ? 'injected' : 'untouched', failures };
}

/** Each object after is the object before with the sidecar's additions, and valid by its schema. */
function compareObjects(before: readonly K8sObject[], after: readonly K8sObject[]): string[] {
  if (before.length !== after.length) return [`${before.length} objects in, ${after.length} out`];
  const failures: string[] = [];
  after.forEach((object, index) => {
    const name = `${object.kind}/${object.metadata?.name ?? '?'}`;
    const path = TEMPLATE_PATHS[object.kind];
    const template = path ? (at(object, path) as Template | undefined) : undefined;
    const sidecars = template ? sidecarCount(template) : 0;
    if (sidecars > 1) failures.push(`${name}: ${sidecars} sidecars`);
    const stripped = sidecars === 1 ? withoutSidecar(object, path!, before[index]!) : object;
    const difference = fastJsonPatch.compare(before[index]!, stripped);
    if (difference.length > 0)
      failures.push(`${name}: changed beyond the sidecar: ${JSON.stringify(difference.slice(0, 3))}`);
    if (sidecars === 1) failures.push(...schemaProblems(name, object, before[index]!));
  });
  return failures;
}

/** The object's schema problems that its input did not already have (schemas of kinds the models know). */
function schemaProblems(name: string, object: K8sObject, input: K8sObject): string[] {
  const problem = (value: K8sObject): string | null => {
    try {
      validateObject(value);
      return null;
    } catch (error) {
      const message = (error as Error).message;
      return /^no schema for/.test(message) ? null : message;
    }
  };
  const after = problem(object);
  return after === null || problem(input) !== null ? [] : [`${name}: ${after}`];
}

function sidecarCount(template: Template): number {
  const spec = template.spec as { initContainers?: { name: string }[]; containers?: { name: string }[] };
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])].filter((c) => c.name === SIDECAR).length;
}

/**
 * The object as the API server stores it, where it differs from the text only in the lists and maps
 * the injection adds to: an empty or null `env`, `volumes`, `initContainers`, labels or annotations is
 * the same as none (their fields are omitted when empty), and so is template metadata left empty.
 */
function asStored(object: K8sObject): K8sObject {
  const copy = structuredClone(object);
  const path = TEMPLATE_PATHS[copy.kind];
  const template = path ? (at(copy, path) as Template | undefined) : undefined;
  if (!template) return copy;
  const empty = (value: unknown) =>
    value === null ||
    (Array.isArray(value) ? value.length === 0 : typeof value === 'object' && Object.keys(value).length === 0);
  const spec = template.spec as Record<string, unknown>;
  for (const list of ['volumes', 'initContainers']) if (empty(spec[list])) delete spec[list];
  for (const container of [
    ...((spec.initContainers as Record<string, unknown>[]) ?? []),
    ...((spec.containers as Record<string, unknown>[]) ?? []),
  ])
    if (empty(container.env)) delete container.env;
  const metadata = (template.metadata ?? {}) as Record<string, unknown>;
  for (const field of ['labels', 'annotations']) if (empty(metadata[field])) delete metadata[field];
  if (Object.keys(metadata).length === 0) delete template.metadata;
  return copy;
}

let policy: PolicySpec | undefined;

/** What the chart's admission policy says of each pod template the injection made, as a Pod. */
function policyRefusals(objects: readonly K8sObject[]): string[] {
  policy ??= renderedPolicy();
  const failures: string[] = [];
  for (const object of objects) {
    const path = TEMPLATE_PATHS[object.kind];
    const template = path ? (at(object, path) as Template | undefined) : undefined;
    if (!template || sidecarCount(template) === 0) continue;
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: template.metadata ?? {}, spec: template.spec };
    const refused = refusals(policy, { object: pod, namespace: 'corpus' });
    if (refused.length > 0)
      failures.push(`${object.kind}/${object.metadata?.name ?? '?'}: the admission policy refuses it: ${refused[0]}`);
  }
  return failures;
}

/** The object with what the injection adds taken out again, by this helper's own reading of it. */
function withoutSidecar(object: K8sObject, path: readonly string[], original: K8sObject): K8sObject {
  const copy = structuredClone(object);
  const template = at(copy, path) as Template;
  const was = at(original, path) as Template;
  const spec = template.spec as Record<string, { name: string; env?: { name: string }[] }[] | undefined>;
  const wasSpec = was.spec as typeof spec;
  // A list the injection filled stands as the input had it: absent, or null (a key with no value).
  const restore = (object: Record<string, unknown>, key: string, was: unknown) => {
    if (Array.isArray(object[key]) && (object[key] as unknown[]).length === 0 && (was ?? null) === null) {
      if (was === null) object[key] = null;
      else delete object[key];
    }
  };
  for (const list of ['initContainers', 'containers']) {
    spec[list] = spec[list]?.filter((c) => c.name !== SIDECAR);
    restore(spec, list, wasSpec[list]);
  }
  spec.volumes = spec.volumes?.filter((v) => !SIDECAR_VOLUMES.includes(v.name));
  restore(spec, 'volumes', wasSpec.volumes);
  for (const container of spec.containers ?? []) {
    const original = wasSpec.containers?.find((c) => c.name === container.name);
    if (original?.env?.some((e) => e.name === 'SFD_SIDECAR_URL')) continue;
    container.env = container.env?.filter((e) => e.name !== 'SFD_SIDECAR_URL');
    restore(container, 'env', original?.env);
  }
  const metadata = template.metadata ?? {};
  for (const field of ['labels', 'annotations'] as const) {
    const values = metadata[field] ?? {};
    for (const key of Object.keys(values))
      if (/^(sfd-sidecar\.io|prometheus\.io)\//.test(key) && was.metadata?.[field]?.[key] === undefined)
        delete values[key];
    // A null map is no map, as the API server reads it.
    if (Object.keys(values).length === 0 && (was.metadata?.[field] ?? null) === null)
      metadata[field] = was.metadata?.[field];
    if (metadata[field] === undefined) delete metadata[field];
  }
  if (Object.keys(metadata).length === 0 && was.metadata === undefined) delete template.metadata;
  return copy;
}

/**
 * Each pod template sent to the webhook as the Pod its controller would create (the workload's
 * sfd-sidecar.io annotations carried onto it, as a platform would put them on the template): an
 * answer for every one, and a patch that fast-json-patch applies to a pod with one sidecar.
 */
async function checkWebhook(objects: readonly K8sObject[], injector: InjectorStack): Promise<string[]> {
  const failures: string[] = [];
  for (const object of objects) {
    const path = TEMPLATE_PATHS[object.kind];
    const template = path ? (at(object, path) as Template | undefined) : undefined;
    if (!template || !Array.isArray(template.spec?.containers)) continue;
    const inherited = Object.fromEntries(
      Object.entries((object.metadata?.annotations as Record<string, string> | undefined) ?? {}).filter(([k]) =>
        k.startsWith('sfd-sidecar.io/'),
      ),
    );
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      ...template,
      metadata: {
        generateName: `${object.metadata?.name ?? 'pod'}-`,
        ...template.metadata,
        annotations: { ...inherited, ...template.metadata?.annotations },
      },
    };
    const review = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'corpus',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        operation: 'CREATE',
        namespace: 'corpus',
        object: pod,
      },
    };
    const name = `${object.kind}/${object.metadata?.name ?? '?'} via the webhook`;
    const answer = await injector.post('/mutate/namespace', JSON.stringify(review));
    if (answer.status !== 200) {
      failures.push(`${name}: HTTP ${answer.status}`);
      continue;
    }
    const response = (JSON.parse(answer.body) as { response: { allowed: boolean; patch?: string } }).response;
    if (!response.patch) {
      if (response.allowed) failures.push(`${name}: admitted without its decision recorded`);
      continue;
    }
    try {
      const patch = JSON.parse(Buffer.from(response.patch, 'base64').toString()) as Operation[];
      const patched = fastJsonPatch.applyPatch(structuredClone(pod), patch, true, false).newDocument;
      const decision = patched.metadata?.annotations?.['sfd-sidecar.io/decision'];
      // A pod left without the sidecar gets its decision recorded, and nothing else.
      const recordedOnly = fastJsonPatch
        .compare(pod, patched)
        .every((op) => op.path.startsWith('/metadata/annotations'));
      if (decision === 'injected' ? sidecarCount(patched) !== 1 : !decision?.startsWith('skipped: ') || !recordedOnly)
        failures.push(`${name}: the patched pod has no single sidecar, or changes besides its decision (${decision})`);
      failures.push(...schemaProblems(name, patched as unknown as K8sObject, pod as unknown as K8sObject));
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
    }
  }
  return failures;
}

function at(object: unknown, path: readonly string[]): unknown {
  let value = object;
  for (const key of path) value = value !== null && typeof value === 'object' ? (value as Json)[key] : undefined;
  return value;
}
