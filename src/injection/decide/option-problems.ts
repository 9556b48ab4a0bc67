// The options of a pod taken together: what each annotation cannot say alone. A key store Secret must
// be named somewhere, the profiles a caller may pick come with the header it picks them by, and the
// sidecar's memory limit leaves room for its heap, with no request above its limit. No value injection
// writes into the sidecar's environment holds `$(`: the kubelet replaces `$(NAME)` there with the value
// of an earlier variable, so the sidecar would read something else than what was judged.
import { SETTINGS } from '../../config/settings.js';
import { formatQuantity, parseQuantity } from '../../config/quantity.js';
import { annotationOf, type PodOptions } from '../options.js';
import { MIN_MEMORY_LIMIT_BYTES } from '../sidecar-memory.js';
import { INJECTED_SIDECAR_SETTINGS } from '../injected-sidecar-settings.js';

export function optionProblems(options: PodOptions, annotations: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  if (options.allowedProfiles.length > 0 !== (options.profileHeader !== null))
    problems.push(
      `annotations ${annotationOf('allowedProfiles')} and ${annotationOf('profileHeader')}: give both (the ` +
        'profiles a caller may pick, and the header it picks them by) or neither',
    );
  problems.push(...resourceProblems(options, annotations));
  problems.push(...expansionProblems(options, annotations));
  if (options.keystoreSecret === null)
    problems.push(
      `no key store Secret: set ${annotationOf('keystoreSecret')} on the pod, or --keystore-secret ` +
        `(${INJECTED_SIDECAR_SETTINGS.keystoreSecret.env}) for all`,
    );
  return problems;
}

/** The options written as literal values that the kubelet would expand, named by where they came from. */
function expansionProblems(options: PodOptions, annotations: Readonly<Record<string, string>>): string[] {
  const literal = {
    upstreamUrl: options.upstreamUrl,
    profile: options.profile,
    allowedProfiles: options.allowedProfiles.join(','),
    profileHeader: options.profileHeader,
  } as const;
  return (Object.keys(literal) as (keyof typeof literal)[])
    .filter((key) => literal[key]?.includes(EXPANSION) === true)
    .map((key) => {
      const annotation = annotationOf(key)!;
      const source = annotations[annotation] === undefined ? SETTINGS[key].env : `annotation ${annotation}`;
      return `${source}: holds "${EXPANSION}", which the kubelet expands`;
    });
}

/** What starts a reference the kubelet expands in a container's environment. */
export const EXPANSION = '$(';

/** A memory limit the sidecar cannot run in, or a request above its limit, named with both numbers. */
function resourceProblems(options: PodOptions, annotations: Readonly<Record<string, string>>): string[] {
  const from = (key: 'memoryLimit' | 'memoryRequest' | 'cpuRequest', setting: string): string => {
    const annotation = annotationOf(key)!;
    return annotations[annotation] === undefined ? setting : `annotation ${annotation}`;
  };
  const problems: string[] = [];
  if ((parseQuantity(options.memoryLimit) ?? 0) < MIN_MEMORY_LIMIT_BYTES)
    problems.push(
      `${from('memoryLimit', INJECTED_SIDECAR_SETTINGS.sidecarMemoryLimit.env)}: ${options.memoryLimit} is below the ` +
        `${formatQuantity('memory', MIN_MEMORY_LIMIT_BYTES)} the sidecar's heap cap and runtime need`,
    );
  const pairs = [
    [
      'memory',
      options.memoryRequest,
      options.memoryLimit,
      'memoryRequest',
      INJECTED_SIDECAR_SETTINGS.sidecarMemoryRequest.env,
    ],
    ['cpu', options.cpuRequest, options.cpuLimit, 'cpuRequest', INJECTED_SIDECAR_SETTINGS.sidecarCpuRequest.env],
  ] as const;
  for (const [resource, request, limit, key, setting] of pairs) {
    if (limit === '') continue;
    if ((parseQuantity(request) ?? 0) > (parseQuantity(limit) ?? Infinity))
      problems.push(`${from(key, setting)}: the ${resource} request ${request} is above the limit ${limit}`);
  }
  return problems;
}
