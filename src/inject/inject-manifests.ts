// `sfd-sidecar inject` over manifest text: YAML streams of any number of documents, JSON, and `List`
// objects, each workload's pod template run through injectPod. Documents without a pod template, and
// every field outside the ones the injection sets, are left as they came (a YAML document the
// injection does not change comes out byte for byte).
import { readYamlStream } from '../text/yaml.js';
import { describeYamlCode, where } from '../keys/read-structured-text.js';
import { injectPod, type PodInjection } from './inject-pod.js';
import type { InjectionOptions } from './injection-options.js';
import { patchBetween } from './json-patch.js';
import type { PodTemplate, StringMap } from './pod.js';
import { describeObject, POD_TEMPLATE_PATHS, valueAt, type KubeObject } from './pod-templates.js';

export interface WorkloadOutcome {
  /** `Kind/name`, and where it came from. */
  readonly workload: string;
  readonly injection: PodInjection;
}

export interface InjectedText {
  readonly text: string;
  readonly outcomes: readonly WorkloadOutcome[];
  /** Documents that could not be read (position and description; never their text). */
  readonly problems: readonly string[];
}

/** A change to make: a path in a document, and its new value (undefined: remove it). */
type Change = { readonly path: readonly (string | number)[]; readonly value: unknown };

export function injectManifestText(text: string, source: string, defaults: InjectionOptions): InjectedText {
  return /^\s*[[{]/.test(text) ? injectJson(text, source, defaults) : injectYaml(text, source, defaults);
}

function injectYaml(text: string, source: string, defaults: InjectionOptions): InjectedText {
  const stream = readYamlStream(text);
  const outcomes: WorkloadOutcome[] = [];
  const problems: string[] = [];
  stream.documents.forEach((document, index) => {
    const at = `${source}, document ${index + 1}`;
    if (document.problem)
      return void problems.push(
        `${at}: not valid YAML${where(text, document.problem.offset)}: ${describeYamlCode(document.problem.code)}`,
      );
    for (const change of injectObject(document.value, at, defaults, outcomes)) {
      if (change.value === undefined) document.remove(change.path);
      else document.set(change.path, change.value);
    }
  });
  return { text: stream.toString(), outcomes, problems };
}

function injectJson(text: string, source: string, defaults: InjectionOptions): InjectedText {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { text, outcomes: [], problems: [`${source}: not valid JSON`] };
  }
  const outcomes: WorkloadOutcome[] = [];
  const changes = injectObject(value, source, defaults, outcomes);
  if (changes.length === 0) return { text, outcomes, problems: [] };
  for (const change of changes) setAt(value, change.path, change.value);
  return { text: `${JSON.stringify(value, null, 2)}\n`, outcomes, problems: [] };
}

/** The changes for one object: its own pod template, or those of a List's items. */
function injectObject(value: unknown, at: string, defaults: InjectionOptions, outcomes: WorkloadOutcome[]): Change[] {
  if (value === null || typeof value !== 'object') return [];
  const object = value as KubeObject;
  if (object.kind === 'List' && Array.isArray(object.items)) {
    return object.items.flatMap((item, index) =>
      injectObject(item, at, defaults, outcomes).map((change) => ({
        ...change,
        path: ['items', index, ...change.path],
      })),
    );
  }
  const path = typeof object.kind === 'string' ? POD_TEMPLATE_PATHS[object.kind] : undefined;
  if (path === undefined) return [];
  const template = valueAt(object, path) as PodTemplate | undefined;
  const workload = `${describeObject(object)} (${at})`;
  if (!template || typeof template !== 'object' || !Array.isArray(template.spec?.containers)) {
    outcomes.push({
      workload,
      injection: { outcome: 'refused', problems: ['it has no pod template with containers'], unknownAnnotations: [] },
    });
    return [];
  }
  // A Pod's own annotations are its template's; a workload's are inherited by its template.
  const inherited = path.length > 0 ? stringMap(object.metadata?.annotations) : {};
  const injection = injectPod(template, defaults, 'unless-disabled', inherited);
  outcomes.push({ workload, injection });
  if (injection.outcome !== 'injected') return [];
  // Only what the injection changed is written: every other field keeps its text and comments.
  return patchBetween(template, injection.template).map((operation) => {
    const pointer = splitPointer(operation.path, template);
    return {
      path: [...path, ...pointer],
      value: operation.op === 'remove' ? undefined : (operation as { value: unknown }).value,
    };
  });
}

/** A JSON pointer's keys, array indexes as numbers (where the document has an array). */
function splitPointer(pointer: string, root: unknown): (string | number)[] {
  const keys: (string | number)[] = [];
  let value = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    const index = Array.isArray(value) ? Number(key) : key;
    keys.push(index);
    value =
      value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[index] : undefined;
  }
  return keys;
}

function stringMap(value: unknown): StringMap {
  if (value === null || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): void {
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(path.at(-1)), 1);
    else delete parent[path.at(-1)!];
  } else parent[path.at(-1)!] = value;
}
