// `sfd-sidecar inject` over manifest text, read as kubectl reads it: YAML streams of any number of
// documents, concatenated JSON objects, and lists (`kind: List`, `DeploymentList`...), each workload's
// pod template run through injectPod. Documents the injection does not change come out byte for byte;
// in a changed JSON value or YAML document only the changed nodes are written anew, in the layout of
// the rest, so every other field keeps its text and comments (a YAML document with anchors or merge
// keys is written whole, since an edit through an anchor would reach every place that uses it).
import { readJsonStream } from './json-stream.js';
import { MAX_NESTING } from './max-nesting.js';
import { editJsonText } from '../../text/json-edit.js';
import { readKubeYamlStream, type StreamDocument } from './kube-yaml.js';
import { describeYamlCode, where, whereIn } from '../../keys/read-structured-text.js';
import { injectPod, type PodInjection } from '../pipeline/inject-pod.js';
import { containerPlaces, keyStoreReaches } from '../pipeline/key-store-reach.js';
import type { EntitlementPolicy } from '../policy/entitlement-policy.js';
import type { InjectionOptions } from '../options.js';
import { patchBetween } from '../json-patch.js';
import { takeSidecarOut } from '../pipeline/uninject-template.js';
import { withEmptyFieldsRecorded } from '../pipeline/empty-fields.js';
import type { PodTemplate, StringMap } from '../pod.js';
import { SIDECAR_NAME } from '../contract.js';
import {
  describeObject,
  mentionsContainers,
  objectName,
  podTemplatePath,
  valueAt,
  type KubeObject,
} from './pod-templates.js';

export interface WorkloadOutcome {
  /** `Kind/name`, and where it came from. */
  readonly workload: string;
  readonly injection: PodInjection;
}

export interface InjectedText {
  /** The manifests again, one entry per document (YAML) or value (JSON), separators included. */
  readonly documents: readonly string[];
  readonly format: 'json' | 'yaml';
  readonly outcomes: readonly WorkloadOutcome[];
  /** Documents that could not be read (position and description; never their text). */
  readonly problems: readonly string[];
}

type Key = string | number;
/** What the injection did to one document: the new whole value, and each edit in order. */
interface DocumentChange {
  readonly value: unknown;
  readonly edits: readonly Edit[];
}
type Edit = { readonly op: 'set' | 'insert' | 'remove'; readonly path: readonly Key[]; readonly value?: unknown };

/** What is done to each pod template (of the object given): the injection, or taking the sidecar out. */
export type PodEdit = (template: PodTemplate, inherited: Readonly<StringMap>, object: KubeObject) => PodInjection;

/**
 * How containers of the object, but those of the pod template the edit judged, would read the key store;
 * a gate over every document, not only over the pods the edit changes.
 */
type KeyStoreJudge = (object: unknown, judged: object | null) => string[];

/**
 * @param policy the entitlement policy, and the namespace of objects that name none (kubectl's
 * `--namespace`, or default)
 */
export function injectManifestText(
  text: string,
  source: string,
  defaults: InjectionOptions,
  policy?: { readonly policy: EntitlementPolicy; readonly namespace: string },
): InjectedText {
  const edit: PodEdit = (template, inherited, object) =>
    withEmptyFieldsRecorded(
      template,
      injectPod(
        template,
        defaults,
        'every-workload',
        inherited,
        policy && {
          policy: policy.policy,
          object: objectName(object),
          namespace: typeof object.metadata?.namespace === 'string' ? object.metadata.namespace : policy.namespace,
        },
      ),
    );
  return editManifestText(text, source, edit, (object, judged) =>
    keyStoreReaches(object, defaults.keystoreSecret, judged),
  );
}

/** The manifests without the sidecar: an `injected` outcome here means the sidecar was taken out. */
export function uninjectManifestText(text: string, source: string): InjectedText {
  return editManifestText(text, source, takeSidecarOut);
}

function editManifestText(text: string, source: string, edit: PodEdit, judge?: KeyStoreJudge): InjectedText {
  return /^\s*[[{]/.test(text) ? injectJson(text, source, edit, judge) : injectYaml(text, source, edit, judge);
}

function injectYaml(text: string, source: string, edit: PodEdit, judge?: KeyStoreJudge): InjectedText {
  const stream = readKubeYamlStream(text);
  const place = whereIn(text);
  const outcomes: WorkloadOutcome[] = [];
  const problems: string[] = [];
  let count = 0;
  for (const document of stream.documents) {
    const at = `${source}, document ${(count += 1)}`;
    if (document.problem) {
      const what = describeYamlCode(document.problem.code as never);
      problems.push(`${at}: not valid YAML${place(document.problem.offset)}: ${what}`);
      continue;
    }
    // A document without a `containers` key, however it is spelled, has no pod template: it is left alone,
    // once none of its containers (an Argo Workflow's lone `container`) would read the key store.
    if (!mentionsContainers(document.value)) {
      leaveAlone(document.value, at, judge, outcomes);
      continue;
    }
    const change = injectDocument(document.value, at, edit, outcomes, judge);
    if (change) applyToYaml(document, change);
  }
  return { documents: [stream.toString()], format: 'yaml', outcomes, problems };
}

function injectJson(text: string, source: string, edit: PodEdit, judge?: KeyStoreJudge): InjectedText {
  const stream = readJsonStream(text);
  if (!stream.ok)
    return {
      documents: [text],
      format: 'json',
      outcomes: [],
      problems: [`${source}${where(text, stream.offset)}: not valid JSON`],
    };
  const deep = stream.values.find((span) => span.depth > MAX_NESTING);
  if (deep)
    return {
      documents: [text],
      format: 'json',
      outcomes: [],
      problems: [`${source}${where(text, deep.start)}: collections nested deeper than ${MAX_NESTING} levels`],
    };
  const outcomes: WorkloadOutcome[] = [];
  const documents = stream.values.map((span, index) => {
    const at = stream.values.length > 1 ? `${source}, object ${index + 1}` : source;
    const change = injectDocument(span.value, at, edit, outcomes, judge);
    const original = text.slice(span.start, span.end);
    // Only the changed values are written: every other byte keeps its place, as in YAML.
    const written = change ? editJsonText(original, change.edits) : original;
    // What stood between the values (white space) stays with the value before it.
    const next = stream.values[index + 1]?.start ?? text.length;
    return (index === 0 ? text.slice(0, span.start) : '') + written + text.slice(span.end, next);
  });
  return { documents: documents.length > 0 ? documents : [text], format: 'json', outcomes, problems: [] };
}

/** The change for one document: its own pod template, or those of a list's items; null when none. */
function injectDocument(
  value: unknown,
  at: string,
  edit: PodEdit,
  outcomes: WorkloadOutcome[],
  judge?: KeyStoreJudge,
): DocumentChange | null {
  const edits = injectObject(value, at, edit, outcomes, judge);
  if (edits.length === 0) return null;
  // Not structuredClone: an alias is the same object as its anchor in the value, and must not stay so.
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  for (const edit of edits) applyEdit(copy, edit);
  return { value: copy, edits };
}

function injectObject(
  value: unknown,
  at: string,
  edit: PodEdit,
  outcomes: WorkloadOutcome[],
  judge?: KeyStoreJudge,
): Edit[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const object = value as KubeObject;
  if (typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items)) {
    return object.items.flatMap((item, index) =>
      injectObject(item, at, edit, outcomes, judge).map((change) => ({
        ...change,
        path: ['items', index, ...change.path],
      })),
    );
  }
  const path = podTemplatePath(object);
  const workload = `${describeObject(object)} (${at})`;
  if (path === undefined) {
    leaveAlone(object, at, judge, outcomes);
    return [];
  }
  const template = valueAt(object, path) as PodTemplate | undefined;
  if (!template || typeof template !== 'object' || !Array.isArray(template.spec?.containers)) {
    outcomes.push({
      workload,
      injection: {
        outcome: 'refused',
        problems: ['it has no pod template with containers'],
        code: 'pod-shape',
        unknownAnnotations: [],
      },
    });
    judgeOnly(object, at, judge, outcomes);
    return [];
  }
  // A Pod's own annotations are its template's; a workload's are inherited by its template.
  const inherited = path.length > 0 ? stringMap(object.metadata?.annotations) : {};
  const injection = edit(template, inherited, object);
  outcomes.push({ workload, injection });
  judgeOnly(object, at, judge, outcomes, judgedTemplate(template, injection));
  if (injection.outcome !== 'injected') return [];
  // Only what the injection changed is written: every other field keeps its text and comments.
  return patchBetween(template, injection.template).map((operation) => {
    const { keys, inList } = splitPointer(operation.path, template);
    const value = operation.op === 'remove' ? undefined : (operation as { value: unknown }).value;
    const op = operation.op === 'remove' ? 'remove' : operation.op === 'add' && inList ? 'insert' : 'set';
    return { op, path: [...path, ...keys], value };
  });
}

/**
 * An object the edit does not change: refused when a container of it would read the key store, else named
 * when it holds containers, at the paths where it does, and its kind is not one inject adds the sidecar to.
 */
function leaveAlone(value: unknown, at: string, judge: KeyStoreJudge | undefined, outcomes: WorkloadOutcome[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const object = value as KubeObject;
  if (typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items)) {
    for (const item of object.items) leaveAlone(item, at, judge, outcomes);
    return;
  }
  if (judgeOnly(object, at, judge, outcomes) || podTemplatePath(object) !== undefined) return;
  const places = containerPlaces(object);
  if (places.length === 0) return;
  outcomes.push({
    workload: `${describeObject(object)} (${at})`,
    injection: {
      outcome: 'skipped',
      reason:
        `it holds containers at ${places.join(', ')}, but ${String(object.kind)} is not a kind inject adds ` +
        'the sidecar to (its controller may not accept another container); add it to the pods it makes',
      unknownAnnotations: [],
    },
  });
}

/**
 * Refuses the object when a container of it would read the key store, naming each; true when it did.
 * The rule is key isolation's (`key-access`), over containers wherever the object holds them.
 */
function judgeOnly(
  value: unknown,
  at: string,
  judge: KeyStoreJudge | undefined,
  outcomes: WorkloadOutcome[],
  judged: object | null = null,
): boolean {
  const problems = judge?.(value, judged) ?? [];
  if (problems.length === 0) return false;
  outcomes.push({
    workload: `${describeObject(value as KubeObject)} (${at})`,
    injection: {
      outcome: 'refused',
      code: 'key-access',
      problems: problems.map((problem) => `key-access ${problem}`),
      unknownAnnotations: [],
    },
  });
  return true;
}

/**
 * The pod template whose containers the injection's rules weighed, or null. A template left alone because
 * it opted out was judged by nothing but its opt-out, unless it carries a sidecar (then every rule judged
 * it).
 */
function judgedTemplate(template: PodTemplate, injection: PodInjection): PodTemplate | null {
  const lists: unknown[] = [template.spec.initContainers, template.spec.containers];
  const carries = lists
    .flatMap((list) => (Array.isArray(list) ? (list as unknown[]) : []))
    .some((container) => (container as { name?: unknown } | null)?.name === SIDECAR_NAME);
  return injection.outcome === 'skipped' && injection.code === 'opted-out' && !carries ? null : template;
}

function applyToYaml(document: StreamDocument, change: DocumentChange): void {
  if (document.shared) return document.replace(change.value);
  for (const edit of change.edits) {
    if (edit.op === 'remove') document.remove(edit.path);
    else if (edit.op === 'insert') document.insert(edit.path, edit.value);
    else document.set(edit.path, edit.value);
  }
}

/** A JSON pointer's keys (array indexes as numbers), and whether its last key is a list's index. */
function splitPointer(pointer: string, root: unknown): { keys: Key[]; inList: boolean } {
  const keys: Key[] = [];
  let value = root;
  let inList = false;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    inList = Array.isArray(value);
    const index = inList ? Number(key) : key;
    keys.push(index);
    value = value !== null && typeof value === 'object' ? (value as Record<Key, unknown>)[index] : undefined;
  }
  return { keys, inList };
}

function stringMap(value: unknown): StringMap {
  if (value === null || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function applyEdit(root: unknown, edit: Edit): void {
  let parent = root as Record<Key, unknown>;
  for (const key of edit.path.slice(0, -1)) parent = parent[key] as Record<Key, unknown>;
  const last = edit.path.at(-1)!;
  if (edit.op === 'remove') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (edit.op === 'insert') (parent as unknown as unknown[]).splice(Number(last), 0, edit.value);
  else parent[last] = edit.value;
}
