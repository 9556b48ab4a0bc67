// Whether a pod can only run on Windows nodes: the sidecar's image is Linux-only, and the Linux fields
// of its security context are refused by the API server in a Windows pod.
import type { PodSpec } from '../pod.js';

const OS_LABELS = ['kubernetes.io/os', 'beta.kubernetes.io/os'];

/** How the pod says it runs on Windows, or null when it may run on Linux. */
export function windowsOnly(spec: PodSpec): string | null {
  if (spec.os?.name === 'windows') return 'spec.os.name is windows';
  for (const label of OS_LABELS)
    if (spec.nodeSelector?.[label] === 'windows') return `its nodeSelector asks for ${label}: windows`;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  // The terms are alternatives: the pod is Windows-only when every one of them rules Linux out.
  if (terms.length > 0 && terms.every(excludesLinux))
    return 'its required node affinity allows only kubernetes.io/os windows';
  return null;
}

function excludesLinux(term: { matchExpressions?: { key: string; operator: string; values?: string[] }[] }): boolean {
  return (term.matchExpressions ?? []).some(
    (expression) =>
      OS_LABELS.includes(expression.key) &&
      ((expression.operator === 'In' && !(expression.values ?? []).includes('linux')) ||
        (expression.operator === 'NotIn' && (expression.values ?? []).includes('linux')) ||
        expression.operator === 'DoesNotExist'),
  );
}
