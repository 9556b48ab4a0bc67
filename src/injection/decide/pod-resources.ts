// Pod-level resources (spec.resources, Kubernetes 1.32+): the containers' requests together may not
// exceed the pod's, and no container's limit may exceed the pod's limit. The sidecar's share must fit
// in what the application containers leave; it is never taken from them.
import type { Container, PodSpec, ResourceRequirements } from '../pod.js';
import { formatQuantity, parseQuantity } from '../../config/quantity.js';

/** Why the sidecar's resources do not fit the pod's budget; empty when they do (or there is none). */
export function podResourceProblems(spec: PodSpec, sidecar: ResourceRequirements): string[] {
  const budget = spec.resources;
  if (!budget) return [];
  const problems: string[] = [];
  // Regular containers and restartable init containers run together; other init containers run alone.
  const together: Container[] = [
    ...spec.containers,
    ...(spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'),
  ];
  for (const [resource, raw] of Object.entries(budget.requests ?? {})) {
    const pod = parseQuantity(raw);
    const needs = parseQuantity(sidecar.requests?.[resource] ?? 0);
    if (pod === null || needs === null || needs === 0) continue;
    const taken = together.reduce((sum, c) => sum + (parseQuantity(c.resources?.requests?.[resource] ?? 0) ?? 0), 0);
    if (taken + needs > pod)
      problems.push(
        `the pod requests ${formatQuantity(resource, pod)} ${resource} in all (spec.resources); its containers ` +
          `request ${formatQuantity(resource, taken)} and the sidecar needs ${formatQuantity(resource, needs)} more`,
      );
  }
  for (const [resource, raw] of Object.entries(budget.limits ?? {})) {
    const pod = parseQuantity(raw);
    const needs = parseQuantity(sidecar.limits?.[resource] ?? 0);
    if (pod === null || needs === null || needs === 0) continue;
    if (needs > pod)
      problems.push(
        `the pod's ${resource} limit is ${formatQuantity(resource, pod)} (spec.resources); the sidecar needs ` +
          `${formatQuantity(resource, needs)} for its heap and runtime`,
      );
  }
  return problems;
}
