// The pods: those that asked for the sidecar and run without it (created while no injector answered,
// under failurePolicy Ignore), and those whose sidecar is not the image the injector adds now.
import { asks, declines, INJECT_LABEL, namespacesPassedOver } from '../../contract.js';
import { isRecord } from '../../../text/is-record.js';
import { describeObject, type KubeObject } from '../../manifests/pod-templates.js';
import { metadataOf, textOf, type ClusterInput } from '../cluster/cluster-input.js';
import type { InjectorInstall } from '../cluster/injector-install.js';
import { otherThanWanted, runningSidecar } from '../cluster/running-sidecar.js';
import { notChecked, type CheckResult } from './check-result.js';

const WITHOUT = 'pods without the sidecar';
const IMAGE = 'sidecar image';

const labelsOf = (object: KubeObject): Record<string, unknown> => {
  const labels = metadataOf(object).labels;
  return isRecord(labels) ? labels : {};
};

export function checkPods(cluster: ClusterInput, injectors: readonly InjectorInstall[]): CheckResult[] {
  const missing = notChecked(WITHOUT, ['Namespace', 'Pod'], cluster.kinds);
  if (missing.length > 0) return missing;
  const injector = injectors[0];
  const excluded = new Set(namespacesPassedOver(injectors.map((i) => i.namespace)));
  const asking = new Set(
    cluster.namespaces.filter((n) => asks(labelsOf(n)[INJECT_LABEL])).map((n) => String(n.metadata?.name)),
  );
  const results: CheckResult[] = [];
  let carrying = 0;
  for (const pod of cluster.pods) {
    const namespace = textOf(pod.metadata?.namespace);
    if (excluded.has(namespace)) continue;
    const label = labelsOf(pod)[INJECT_LABEL];
    const asked = asks(label) || (asking.has(namespace) && !declines(label));
    const sidecar = runningSidecar(pod);
    const name = describeObject(pod);
    const restart = `kubectl -n ${namespace} ${restartOf(pod)}`;
    if (asked && sidecar === null)
      results.push({
        check: WITHOUT,
        status: 'fail',
        detail: `${name} asked for the sidecar and runs without it`,
        fix: `${restart} (once the injector answers)`,
      });
    if (sidecar === null) continue;
    carrying += 1;
    const other = injector ? otherThanWanted(sidecar, { image: injector.defaults.image }) : null;
    if (other !== null) results.push({ check: IMAGE, status: 'warn', detail: `${name} ${other}`, fix: restart });
  }
  if (!results.some((r) => r.check === WITHOUT))
    results.push({ check: WITHOUT, status: 'ok', detail: 'every pod that asked for the sidecar runs with it' });
  if (injector && !results.some((r) => r.check === IMAGE))
    results.push({
      check: IMAGE,
      status: 'ok',
      detail: `${carrying} ${carrying === 1 ? 'pod runs' : 'pods run'} ${injector.defaults.image}`,
    });
  return results;
}

/** The command that recreates the pod: a rollout restart of its Deployment, or deleting it for its owner. */
function restartOf(pod: KubeObject): string {
  const metadata = metadataOf(pod);
  const owners = Array.isArray(metadata.ownerReferences) ? metadata.ownerReferences.filter(isRecord) : [];
  const owner = owners[0];
  const name = typeof owner?.name === 'string' ? owner.name : '';
  if (owner?.kind === 'ReplicaSet' && /-[a-z0-9]{5,10}$/.test(name))
    return `rollout restart deployment/${name.replace(/-[a-z0-9]{5,10}$/, '')}`;
  if (owner?.kind === 'StatefulSet' || owner?.kind === 'DaemonSet')
    return `rollout restart ${String(owner.kind).toLowerCase()}/${name}`;
  return `delete pod ${String(metadata.name)}${owner ? ` (its ${String(owner.kind)} makes it again)` : ''}`;
}
