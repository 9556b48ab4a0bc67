// The operations that record the webhook's decision on a pod it leaves as it is, in the annotation
// `sfd-sidecar.io/decision`, which `sfd-sidecar check --pod` reads. Written by hand rather than as the
// difference of two pods: the pod may be one whose judging failed, so nothing of it is walked, and each
// member is checked before it is read.
import { DECISION } from './contract.js';
import { pointerToken, type PatchOperation } from './json-patch.js';
import { isRecord } from '../text/is-record.js';

/**
 * The operations recording a decision on a pod left as it is. A decision already recorded stays: the
 * webhook runs again after a later webhook changes a pod it injected, and then finds its own sidecar
 * there. A pod whose metadata or annotations are not objects gets nothing.
 */
export function decisionPatch(pod: unknown, decision: string): PatchOperation[] {
  const metadata = ownMember(pod, 'metadata');
  if (metadata === undefined || metadata === null) {
    const op = metadata === null ? 'replace' : 'add';
    return [{ op, path: '/metadata', value: { annotations: { [DECISION]: decision } } }];
  }
  if (!isRecord(metadata)) return [];
  const annotations = ownMember(metadata, 'annotations');
  if (annotations === undefined || annotations === null) {
    const op = annotations === null ? 'replace' : 'add';
    return [{ op, path: '/metadata/annotations', value: { [DECISION]: decision } }];
  }
  if (!isRecord(annotations) || typeof ownMember(annotations, DECISION) === 'string') return [];
  const op = Object.hasOwn(annotations, DECISION) ? 'replace' : 'add';
  return [{ op, path: `/metadata/annotations/${pointerToken(DECISION)}`, value: decision }];
}

/** An object's own member; undefined when the value is not an object or has no such member. */
const ownMember = (value: unknown, key: string): unknown =>
  isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
