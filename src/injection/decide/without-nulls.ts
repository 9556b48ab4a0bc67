// The pod as the rules read it. The API server drops a field whose value is null before anything runs
// the pod, so the rules judge such a field as absent. Only what the rules read is copied: the spec
// whole, and the members of the pod and of its metadata; the rest (managedFields, status) is carried as
// it came, since its values are free-form and may nest as deep as a client likes. The spec is walked
// without recursion, so that no depth of nesting overflows the stack.
import { isRecord } from '../../text/is-record.js';
import type { PodTemplate } from '../pod.js';

/** The pod without its null members, down through its spec; its shape is known good. */
export function podWithoutNulls(template: PodTemplate): PodTemplate {
  const pod = withoutNullMembers(template) as PodTemplate;
  if (isRecord(pod.metadata)) setMember(pod, 'metadata', withoutNullMembers(pod.metadata));
  setMember(pod, 'spec', withoutNulls(template.spec));
  return pod;
}

/** A copy of a JSON value without the members whose value is null, at any depth; a list keeps its nulls. */
export function withoutNulls(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const root = emptyLike(value);
  const pending: [source: object, copy: object][] = [[value, root]];
  while (pending.length > 0) {
    const [source, copy] = pending.pop()!;
    const list = Array.isArray(source);
    for (const [key, member] of Object.entries(source) as [string, unknown][]) {
      if (member === null && !list) continue;
      if (member === null || typeof member !== 'object') {
        setMember(copy, key, member);
        continue;
      }
      const child = emptyLike(member);
      setMember(copy, key, child);
      pending.push([member, child]);
    }
  }
  return root;
}

/** The object's own members but those whose value is null; nothing below them is copied. */
function withoutNullMembers(value: Record<string, unknown>): Record<string, unknown> {
  const copy = {};
  for (const [key, member] of Object.entries(value)) if (member !== null) setMember(copy, key, member);
  return copy;
}

const emptyLike = (value: object): object => (Array.isArray(value) ? new Array<unknown>(value.length) : {});

/** Sets a member as its own, `__proto__` included: JSON.parse makes that key a member, not a prototype. */
function setMember(target: object, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}
