// The sidecar's requests and limits, from its options: what the render writes and what the pod-level
// resources rule weighs. No CPU limit unless one is set.
import type { InjectionOptions } from './options.js';
import type { ResourceRequirements } from './pod.js';

/** The least memory limit the sidecar runs in: the image's heap cap (128 MiB) and the runtime's 64 MiB. */
export const MIN_MEMORY_LIMIT_BYTES = 192 * 2 ** 20;

export function sidecarResources(
  options: Pick<InjectionOptions, 'cpuRequest' | 'memoryRequest' | 'cpuLimit' | 'memoryLimit'>,
): ResourceRequirements {
  const { cpuRequest, memoryRequest, cpuLimit, memoryLimit } = options;
  return {
    requests: { cpu: cpuRequest, memory: memoryRequest },
    limits: { ...(cpuLimit === '' ? {} : { cpu: cpuLimit }), memory: memoryLimit },
  };
}
