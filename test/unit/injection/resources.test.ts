// The sidecar's resources: the defaults (SFD_SIDECAR_* settings, the chart's sidecar.resources), each
// overridden per pod by an annotation; a memory limit below what the heap needs, or a request above its
// limit, is refused naming both numbers.
import test from 'ava';
import { injectPod } from '../../../src/injection/pipeline/inject-pod.js';
import { DEFAULTS, pod, sidecarOf } from '../../helpers/injection.js';

test('annotations set the requests and limits of one pod', (t) => {
  const result = injectPod(
    pod(
      {},
      {
        'sfd-sidecar.io/cpu-request': '100m',
        'sfd-sidecar.io/memory-request': '128Mi',
        'sfd-sidecar.io/cpu-limit': '1',
        'sfd-sidecar.io/memory-limit': '256Mi',
      },
    ),
    DEFAULTS,
    'every-workload',
  );
  if (result.outcome !== 'injected') return t.fail(JSON.stringify(result));
  t.deepEqual(sidecarOf(result.template)?.resources, {
    requests: { cpu: '100m', memory: '128Mi' },
    limits: { cpu: '1', memory: '256Mi' },
  });
  t.deepEqual(result.unknownAnnotations, []);
});

test('the defaults come from the settings; no CPU limit unless one is set', (t) => {
  const defaults = { ...DEFAULTS, memoryRequest: '150Mi' };
  const result = injectPod(pod(), defaults, 'every-workload');
  if (result.outcome !== 'injected') return t.fail();
  t.deepEqual(sidecarOf(result.template)?.resources, {
    requests: { cpu: '50m', memory: '150Mi' },
    limits: { memory: '192Mi' },
  });
});

test('a memory limit the heap does not fit, or a request above the limit, is refused with both numbers', (t) => {
  const low = injectPod(pod({}, { 'sfd-sidecar.io/memory-limit': '128Mi' }), DEFAULTS, 'every-workload');
  t.is(low.outcome, 'refused');
  if (low.outcome === 'refused')
    t.true(
      low.problems.includes(
        "annotation sfd-sidecar.io/memory-limit: 128Mi is below the 192Mi the sidecar's heap cap and runtime need",
      ),
      low.problems.join('; '),
    );
  const above = injectPod(
    pod({}, { 'sfd-sidecar.io/cpu-request': '2', 'sfd-sidecar.io/cpu-limit': '500m' }),
    DEFAULTS,
    'every-workload',
  );
  if (above.outcome !== 'refused') return t.fail();
  t.true(
    above.problems.some(
      (p) => p === 'annotation sfd-sidecar.io/cpu-request: the cpu request 2 is above the limit 500m',
    ),
  );
  const bad = injectPod(pod({}, { 'sfd-sidecar.io/memory-request': 'lots' }), DEFAULTS, 'every-workload');
  if (bad.outcome !== 'refused') return t.fail();
  t.regex(bad.problems[0]!, /annotation sfd-sidecar\.io\/memory-request: must be a memory quantity/);
});
