// A sidecar a pod already carries (an offline injection, a copy of an injected pod, or one written by
// hand), read as the rules judge it: which profiles it signs with, which Secrets and volumes it reads
// its keys from, and which user it runs as. Its profiles count only as literal values: a value from a
// ConfigMap, a Secret or a settings file may say anything once the pod runs.
import { SETTINGS } from '../../config/settings.js';
import { parseProfileList, parseProfileName } from '../../config/profile-parsers.js';
import { SIDECAR_NAME } from '../contract.js';
import { parseOperationsSetting, type ProfileNarrowing } from '../../operations/operations-setting.js';
import type { Container, PodSpec } from '../pod.js';

export interface CarriedSidecar {
  readonly container: Container;
  /** Native (an init container) or classic. */
  readonly mode: 'native' | 'classic';
  /** Every other container of the pod: init, regular and ephemeral. */
  readonly others: readonly Container[];
  /** The profiles it signs with, or why they cannot be told from its env. */
  readonly profiles: { readonly ok: true; readonly names: readonly string[] } | { readonly ok: false; why: string };
  readonly volumes: readonly string[];
  readonly secrets: readonly string[];
  /** Its user id, or null when the platform assigns it. */
  readonly user: number | null;
  /** The operations it may sign per profile (its literal SFD_OPERATIONS), or null when it names none. */
  readonly narrowing: ProfileNarrowing | null;
}

/** The sidecar the pod carries, or null when it carries none. */
export function carriedSidecar(spec: PodSpec): CarriedSidecar | null {
  const init = spec.initContainers ?? [];
  const index = init.findIndex((c) => c.name === SIDECAR_NAME);
  const inContainers = index === -1 ? spec.containers.findIndex((c) => c.name === SIDECAR_NAME) : -1;
  if (index === -1 && inContainers === -1) return null;
  const container = index !== -1 ? init[index]! : spec.containers[inContainers]!;
  const all = [...init, ...spec.containers, ...(spec.ephemeralContainers ?? [])];
  const volumes = (container.volumeMounts ?? []).map((m) => m.name);
  const secrets = (spec.volumes ?? [])
    .filter((v) => volumes.includes(v.name))
    .flatMap((v) => [v.secret?.secretName, ...(v.projected?.sources ?? []).map((s) => s.secret?.name)])
    .filter((name): name is string => typeof name === 'string');
  return {
    container,
    mode: index !== -1 ? 'native' : 'classic',
    others: all.filter((c) => c !== container),
    profiles: profilesOf(container),
    volumes,
    secrets,
    user: container.securityContext?.runAsUser ?? spec.securityContext?.runAsUser ?? null,
    narrowing: narrowingOf(container),
  };
}

function profilesOf(container: Container): CarriedSidecar['profiles'] {
  if ((container.envFrom ?? []).length > 0)
    return { ok: false, why: 'it takes variables by envFrom, which may set its profile' };
  const env = container.env ?? [];
  if (env.some((e) => e.name === SETTINGS.envFile.env))
    return { ok: false, why: `it reads a settings file (${SETTINGS.envFile.env}), which may set its profile` };
  // Of repeated names the last holds, as the kubelet sets them in order.
  const literal = (name: string): { ok: true; text: string | null } | { ok: false; why: string } => {
    const entry = env.filter((e) => e.name === name).at(-1);
    if (entry?.valueFrom !== undefined && entry.valueFrom !== null)
      return { ok: false, why: `its ${name} comes from valueFrom, not a literal value` };
    // The sidecar reads a blank value as unset, and so does this.
    const text = entry?.value?.trim() ?? '';
    return { ok: true, text: text === '' ? null : text };
  };
  const profile = literal(SETTINGS.profile.env);
  if (!profile.ok) return profile;
  const own =
    profile.text === null ? { ok: true as const, value: SETTINGS.profile.default } : parseProfileName(profile.text);
  if (!own.ok) return { ok: false, why: `its ${SETTINGS.profile.env} is not ${own.allowed}` };
  const allowed = literal(SETTINGS.allowedProfiles.env);
  if (!allowed.ok) return allowed;
  const others = allowed.text === null ? { ok: true as const, value: [] } : parseProfileList(allowed.text);
  if (!others.ok) return { ok: false, why: `its ${SETTINGS.allowedProfiles.env} is not ${others.allowed}` };
  const names = [own.value, ...others.value];
  return { ok: true, names: [...new Set(names)] };
}

/** Its literal SFD_OPERATIONS read as the sidecar reads it; an empty limit per profile when unreadable. */
function narrowingOf(container: Container): ProfileNarrowing | null {
  const entry = (container.env ?? []).filter((e) => e.name === SETTINGS.operations.env).at(-1);
  if (entry === undefined || entry.valueFrom !== undefined) return null;
  const parsed = parseOperationsSetting(entry.value ?? '');
  return parsed.ok ? parsed.value : new Map();
}
