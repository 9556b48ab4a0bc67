// The injector's pods: found, ready, and all of one version.
import { metadataOf, type ClusterInput } from '../cluster/cluster-input.js';
import type { InjectorInstall } from '../cluster/injector-install.js';
import { isRecord } from '../../../text/is-record.js';
import type { KubeObject } from '../../manifests/pod-templates.js';
import { imageParts } from '../cluster/running-sidecar.js';
import { notChecked, type CheckResult } from './check-result.js';

const CHECK = 'injector';

export function checkInjector(cluster: ClusterInput, injectors: readonly InjectorInstall[]): CheckResult[] {
  const missing = notChecked(CHECK, ['Deployment', 'Pod'], cluster.kinds);
  if (missing.length > 0) return missing;
  if (injectors.length === 0)
    return [
      {
        check: CHECK,
        status: 'fail',
        detail: 'no injector Deployment (pods labelled sfd-sidecar.io/injector) in any namespace',
        fix:
          'helm install sfd-sidecar oci://ghcr.io/sfd-sidecar/charts/sfd-sidecar -n sfd-system --create-namespace ' +
          '--set keystore.existingSecret=KEYSTORE_SECRET',
      },
    ];
  return injectors.map((injector) => {
    const where = `${injector.namespace}/${injector.name}`;
    const ready = injector.pods.filter(isReady).length;
    const versions = [...new Set(injector.pods.map(versionOf))];
    const version = versions.join(', ') || 'unknown';
    const detail = `${ready} of ${injector.pods.length} pods of ${where} ready, version ${version}`;
    const fix =
      `kubectl -n ${injector.namespace} describe pods -l sfd-sidecar.io/injector=true; ` +
      `kubectl -n ${injector.namespace} logs deploy/${injector.name}`;
    if (ready === 0) return { check: CHECK, status: 'fail', detail, fix };
    if (ready < injector.pods.length || versions.length > 1)
      return { check: CHECK, status: 'warn', detail: `${detail} (a rollout in progress, or pods failing)`, fix };
    return { check: CHECK, status: 'ok', detail };
  });
}

function isReady(pod: KubeObject): boolean {
  const status = isRecord(pod.status) ? pod.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isRecord) : [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The version a pod runs: its image's tag (what the kubelet pulled), else its chart's version label. */
function versionOf(pod: KubeObject): string {
  const spec = isRecord(pod.spec) ? pod.spec : {};
  const image = Array.isArray(spec.containers) && isRecord(spec.containers[0]) ? spec.containers[0].image : undefined;
  const tag = typeof image === 'string' ? imageParts(image).tag : null;
  const metadata = metadataOf(pod);
  const labels = isRecord(metadata.labels) ? metadata.labels : {};
  const label = labels['app.kubernetes.io/version'];
  return tag ?? (typeof label === 'string' ? label : 'unknown');
}
