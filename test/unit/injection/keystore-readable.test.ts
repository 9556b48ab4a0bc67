// The injected sidecar can read its key files in any pod, reasoned as the kubelet lays out a Secret
// volume: files owned by root, their group the pod's fsGroup when it has one (root otherwise), their
// mode the volume's defaultMode with group read added under an fsGroup; the container's user and group
// from its own securityContext, else the pod's, else the image's (65532), plus the pod's
// supplementalGroups and fsGroup.
import test from 'ava';
import { injectPod } from '../../../src/injection/pipeline/inject-pod.js';
import type { Container, PodTemplate } from '../../../src/injection/pod.js';
import { DEFAULTS, pod, sidecarOf } from '../../helpers/injection.js';

interface PodSecurity {
  [field: string]: unknown;
  runAsUser?: number;
  runAsGroup?: number;
  fsGroup?: number;
  supplementalGroups?: number[];
  runAsNonRoot?: boolean;
}

const IMAGE_USER = { uid: 65532, gid: 65532 };

function keyFile(template: PodTemplate, defaultMode: number): { uid: number; gid: number; mode: number } {
  const fsGroup = template.spec.securityContext?.fsGroup as number | undefined;
  return { uid: 0, gid: fsGroup ?? 0, mode: fsGroup === undefined ? defaultMode : defaultMode | 0o440 };
}

function identity(container: Container, template: PodTemplate): { uid: number; groups: number[] } {
  const own = (container.securityContext ?? {}) as PodSecurity;
  const podLevel = (template.spec.securityContext ?? {}) as PodSecurity;
  const uid = own.runAsUser ?? podLevel.runAsUser ?? IMAGE_USER.uid;
  const gid = own.runAsGroup ?? podLevel.runAsGroup ?? IMAGE_USER.gid;
  return {
    uid,
    groups: [
      gid,
      ...(podLevel.supplementalGroups ?? []),
      ...(podLevel.fsGroup === undefined ? [] : [podLevel.fsGroup]),
    ],
  };
}

function canRead(file: { uid: number; gid: number; mode: number }, who: { uid: number; groups: number[] }): boolean {
  if (who.uid === 0) return true;
  if (who.uid === file.uid) return (file.mode & 0o400) !== 0;
  if (who.groups.includes(file.gid)) return (file.mode & 0o040) !== 0;
  return (file.mode & 0o004) !== 0;
}

const POD_SECURITY: readonly PodSecurity[] = [
  {},
  { runAsNonRoot: true },
  { fsGroup: 2000 },
  { fsGroup: 65532 },
  { runAsUser: 1000 },
  { runAsUser: 1000, runAsGroup: 3000, supplementalGroups: [4000] },
  { runAsUser: 0 },
  { runAsUser: 1000, fsGroup: 1000 },
];

for (const security of POD_SECURITY) {
  test(`the sidecar reads its key files in a pod with securityContext ${JSON.stringify(security)}`, (t) => {
    const template = pod({ securityContext: security });
    const result = injectPod(template, DEFAULTS, 'every-workload');
    if (result.outcome !== 'injected') return t.fail();
    const volume = result.template.spec.volumes!.find((v) => v.name === 'sfd-sidecar-keystore')!;
    const mode = (volume.secret as { defaultMode: number }).defaultMode;
    t.true(canRead(keyFile(result.template, mode), identity(sidecarOf(result.template)!, result.template)));
  });
}

test(
  'the reasoning finds the old mistake: files of mode ' +
    '0440 without an fsGroup are unreadable to a non-root ' +
    'user',
  (t) => {
    const template = pod();
    const result = injectPod(template, DEFAULTS, 'every-workload');
    if (result.outcome !== 'injected') return t.fail();
    t.false(canRead(keyFile(result.template, 0o440), identity(sidecarOf(result.template)!, result.template)));
    t.true(canRead(keyFile(pod({ securityContext: { fsGroup: 2000 } }), 0o440), { uid: 65532, groups: [65532, 2000] }));
  },
);
