// The sidecar's requests and limits, from its options: what the render writes and what the pod-level
// resources rule weighs. No CPU limit unless one is set.
import type { InjectionOptions } from './options.js';
import type { ResourceRequirements } from './pod.js';

export function sidecarResources(
  options: Pick<InjectionOptions, 'cpuRequest' | 'memoryRequest' | 'cpuLimit' | 'memoryLimit'>,
): ResourceRequirements {
  const { cpuRequest, memoryRequest, cpuLimit, memoryLimit } = options;
  return {
    requests: { cpu: cpuRequest, memory: memoryRequest },
    limits: { ...(cpuLimit === '' ? {} : { cpu: cpuLimit }), memory: memoryLimit },
  };
}
