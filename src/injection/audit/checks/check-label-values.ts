// The opt-in label's values: a namespace or a pod labelled with a value that neither asks nor declines
// (a typo such as "yes") is one the webhook's selectors pass over, so its owner believes it asked and
// finds no sidecar, or believes it declined and gets one.
import { ASKING_VALUES, asks, declines, DECLINING_VALUES, INJECT_LABEL } from '../../contract.js';
import { isRecord } from '../../../text/is-record.js';
import { describeObject, type KubeObject } from '../../manifests/pod-templates.js';
import type { ClusterInput } from '../cluster/cluster-input.js';
import { metadataOf } from '../cluster/cluster-input.js';
import type { CheckResult } from './check-result.js';

const CHECK = 'opt-in label values';

const labelOf = (object: KubeObject): unknown => {
  const labels = metadataOf(object).labels;
  return isRecord(labels) ? labels[INJECT_LABEL] : undefined;
};

export function checkLabelValues(cluster: ClusterInput): CheckResult[] {
  const results: CheckResult[] = [];
  for (const object of [...cluster.namespaces, ...cluster.pods]) {
    const value = labelOf(object);
    if (value === undefined || asks(value) || declines(value)) continue;
    results.push({
      check: CHECK,
      status: 'warn',
      detail:
        `${describeObject(object)} is labelled ${INJECT_LABEL}=${JSON.stringify(value)}, ` +
        'which neither asks nor declines',
      fix: `label it ${INJECT_LABEL}=${ASKING_VALUES.join(' or ')} to ask, ${DECLINING_VALUES.join(' or ')} to decline`,
    });
  }
  if (results.length === 0 && cluster.kinds.has('Namespace'))
    results.push({ check: CHECK, status: 'ok', detail: `every ${INJECT_LABEL} label asks or declines` });
  return results;
}
