// What a platform team needs to know about a running cluster, from the objects `kubectl get -o json`
// prints (pods, workloads, namespaces): pods that asked for the sidecar and run without it (the
// injector was down under `failurePolicy: Ignore`, or the pod predates the opt-in), pods and workloads
// that ask only by the annotation (which the webhook's selectors cannot see: label them), and pods whose
// sidecar is not the version wanted (the upgrade report). Pure: no I/O.
import { asks, declines, INJECT_LABEL, SIDECAR_NAME } from '../contract.js';
import { otherThanWanted, runningSidecar, type WantedSidecar } from './cluster/running-sidecar.js';
import { describeObject, podTemplatePath, valueAt, type KubeObject } from '../manifests/pod-templates.js';

export type FindingKind = 'runs-without-sidecar' | 'annotation-only' | 'other-version';

export interface AuditFinding {
  readonly kind: FindingKind;
  /** `Kind/name in namespace NS`. */
  readonly object: string;
  readonly detail: string;
}

interface Template {
  metadata?: { labels?: Record<string, unknown>; annotations?: Record<string, unknown> };
  spec?: { containers?: { name?: unknown }[]; initContainers?: { name?: unknown }[] };
}

export function auditObjects(objects: readonly KubeObject[], wanted: WantedSidecar | null): AuditFinding[] {
  const optedIn = new Set(
    objects
      .filter((o) => o.kind === 'Namespace' && asks(labelsOf(o)[INJECT_LABEL]))
      .map((o) => String(o.metadata?.name)),
  );
  const findings: AuditFinding[] = [];
  for (const object of objects) {
    const path = podTemplatePath(object);
    if (path === undefined) continue;
    const template = valueAt(object, path) as Template | undefined;
    if (!template || typeof template !== 'object') continue;
    const name = describeObject(object);
    const labels = template.metadata?.labels ?? {};
    const annotations = { ...annotationsOf(object), ...template.metadata?.annotations };
    const label = labels[INJECT_LABEL];
    if (label === undefined && asks(annotations[INJECT_LABEL]))
      findings.push({
        kind: 'annotation-only',
        object: name,
        detail:
          `asks by the annotation ${INJECT_LABEL} only, which the injector's selectors cannot see: ` +
          `add the label ${INJECT_LABEL}: "true" to ${owner(object)}`,
      });
    if (object.kind !== 'Pod') continue;
    const containers = [...(template.spec?.initContainers ?? []), ...(template.spec?.containers ?? [])];
    const sidecar = containers.some((c) => c.name === SIDECAR_NAME);
    const namespace = typeof object.metadata?.namespace === 'string' ? object.metadata.namespace : '';
    const asked =
      asks(label) ||
      (label === undefined && asks(annotations[INJECT_LABEL])) ||
      (!declines(label) && optedIn.has(namespace));
    if (asked && !sidecar)
      findings.push({
        kind: 'runs-without-sidecar',
        object: name,
        detail: `asked for the sidecar and runs without it: restart it once the injector answers (${owner(object)})`,
      });
    const running = runningSidecar(object);
    const other = running && wanted ? otherThanWanted(running, wanted) : null;
    if (other !== null)
      findings.push({ kind: 'other-version', object: name, detail: `${other}: restart ${owner(object)}` });
  }
  return findings;
}

function labelsOf(object: KubeObject): Record<string, unknown> {
  const labels = (object.metadata as { labels?: unknown } | undefined)?.labels;
  return labels !== null && typeof labels === 'object' ? (labels as Record<string, unknown>) : {};
}

function annotationsOf(object: KubeObject): Record<string, unknown> {
  const annotations = object.metadata?.annotations;
  return annotations !== null && typeof annotations === 'object' ? (annotations as Record<string, unknown>) : {};
}

/** Who to change: the pod's controller (a ReplicaSet's Deployment by its name), or the object itself. */
function owner(object: KubeObject): string {
  const references = (object.metadata as { ownerReferences?: { kind?: unknown; name?: unknown }[] } | undefined)
    ?.ownerReferences;
  const reference = Array.isArray(references) ? references[0] : undefined;
  if (!reference || typeof reference.name !== 'string') return `the ${String(object.kind)} itself`;
  if (reference.kind === 'ReplicaSet' && /-[a-z0-9]{5,10}$/.test(reference.name))
    return `the pod template of Deployment ${reference.name.replace(/-[a-z0-9]{5,10}$/, '')}`;
  return `the pod template of ${String(reference.kind)} ${reference.name}`;
}
