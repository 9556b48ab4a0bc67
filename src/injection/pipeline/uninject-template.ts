// `uninject` over one pod template: what injection added taken out, the fields `inject` found empty left
// empty again, or the template as it came when it has no sidecar. A template whose fields have the
// wrong types is refused rather than guessed at.
import { podShapeProblems } from '../decide/pod-shape.js';
import type { PodTemplate } from '../pod.js';
import { uninjectPod } from '../render/uninject-pod.js';
import { WRITTEN } from '../contract.js';
import { restoreEmptyFields } from './empty-fields.js';
import type { PodInjection } from './inject-pod.js';

/** An `injected` outcome here means the sidecar was taken out. */
export function takeSidecarOut(template: unknown): PodInjection {
  const shape = podShapeProblems(template);
  if (shape.length > 0) return { outcome: 'refused', code: 'pod-shape', problems: shape, unknownAnnotations: [] };
  const bare = uninjectPod(template as PodTemplate);
  if (bare === template) return { outcome: 'skipped', reason: 'it has no sidecar', unknownAnnotations: [] };
  const record = (template as PodTemplate).metadata?.annotations?.[WRITTEN.wasEmpty];
  return { outcome: 'injected', template: restoreEmptyFields(bare, record), notes: [], unknownAnnotations: [] };
}
