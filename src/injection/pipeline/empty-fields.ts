// The fields of a pod template that injection fills and uninject would take away once emptied again:
// the template's metadata, its labels and annotations, the pod's volumes and init containers, and each
// container's env. A manifest may have them empty (`[]`, `{}`) or null (`env:` without a value, as
// charts render an unset list), and then uninject must leave them so, not take them away. `inject`
// records those it found so in an annotation, and uninject reads it back. Pure: no I/O.
import { WRITTEN } from '../contract.js';
import type { PodTemplate } from '../pod.js';
import { uninjectPod } from '../render/uninject-pod.js';
import type { PodInjection } from './inject-pod.js';
import { isRecord } from '../../text/is-record.js';
import { recordKeptSidecarUrls } from './kept-sidecar-url.js';

type EmptyValue = '[]' | '{}' | 'null';
const EMPTY_VALUES: Readonly<Record<EmptyValue, () => unknown>> = {
  '[]': () => [],
  '{}': () => ({}),
  null: () => null,
};

/** A field's place: keys from the template, a container by its name. */
type FieldPath = readonly string[];

/** The fields injection may fill, in the template as it is. */
function fillableFields(template: PodTemplate): FieldPath[] {
  const containers = Array.isArray(template.spec?.containers) ? template.spec.containers : [];
  return [
    ['metadata'],
    ['metadata', 'labels'],
    ['metadata', 'annotations'],
    ['spec', 'volumes'],
    ['spec', 'initContainers'],
    ...containers
      .filter((container) => typeof container?.name === 'string')
      .map((container) => ['spec', 'containers', container.name, 'env']),
  ];
}

/** The value at a path (a container found by name), and whether its field is there at all. */
function fieldAt(root: unknown, path: FieldPath): { present: boolean; value: unknown } {
  let value: unknown = root;
  for (const [index, key] of path.entries()) {
    const list = path[index - 1] === 'containers' && Array.isArray(value);
    const next = list
      ? (value as unknown[]).find((entry) => isRecord(entry) && entry.name === key)
      : isRecord(value) && Object.hasOwn(value, key)
        ? value[key]
        : undefined;
    if (next === undefined) return { present: false, value: undefined };
    value = next;
  }
  return { present: true, value };
}

function emptyValueOf(value: unknown): EmptyValue | null {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : null;
  return isRecord(value) && Object.keys(value).length === 0 ? '{}' : null;
}

/**
 * An injection whose template records the fields it filled that were empty or null in `before`, and the
 * containers whose own SFD_SIDECAR_URL it kept.
 */
export function withEmptyFieldsRecorded(before: PodTemplate, injection: PodInjection): PodInjection {
  if (injection.outcome !== 'injected') return injection;
  // A template injected before is judged as it was before that injection, so that inject over its own
  // output keeps the record and prints the same text.
  const record = before.metadata?.annotations?.[WRITTEN.wasEmpty];
  const original = restoreEmptyFields(uninjectPod(before), record);
  const kept = recordKeptSidecarUrls(original, injection.template);
  return { ...injection, template: recordEmptyFields(original, kept, uninjectPod(kept)) };
}

/**
 * The injected template with WRITTEN.wasEmpty naming the fields that were empty or null before and that
 * `bare` (the injected template with the sidecar taken out) no longer has; unchanged when there are none.
 */
export function recordEmptyFields(before: PodTemplate, injected: PodTemplate, bare: PodTemplate): PodTemplate {
  const items = fillableFields(before).flatMap((path) => {
    const was = fieldAt(before, path);
    const empty = was.present ? emptyValueOf(was.value) : null;
    return empty !== null && !fieldAt(bare, path).present ? [`${path.join('.')}=${empty}`] : [];
  });
  if (items.length === 0) return injected;
  const metadata = injected.metadata ?? {};
  return {
    ...injected,
    metadata: { ...metadata, annotations: { ...metadata.annotations, [WRITTEN.wasEmpty]: items.join(',') } },
  };
}

/** The template with the fields the record names put back as they were, where uninject took them away. */
export function restoreEmptyFields(bare: PodTemplate, record: string | undefined): PodTemplate {
  if (record === undefined) return bare;
  const restored = structuredClone(bare) as unknown as Record<string, unknown>;
  for (const item of record.split(',')) {
    const match = /^([A-Za-z0-9.-]+)=(\[\]|\{\}|null)$/.exec(item);
    if (!match) continue;
    const path = match[1]!.split('.');
    if (fieldAt(restored, path).present) continue;
    // The template's metadata, taken away with the last of what injection wrote in it, comes back too.
    if (path[0] === 'metadata' && path.length === 2 && !isRecord(restored.metadata)) restored.metadata = {};
    const parent = fieldAt(restored, path.slice(0, -1));
    if (!parent.present || !isRecord(parent.value)) continue;
    parent.value[path.at(-1)!] = EMPTY_VALUES[match[2] as EmptyValue]();
  }
  return restored as unknown as PodTemplate;
}
