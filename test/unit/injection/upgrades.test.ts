// Asking by label, and upgrading: every injected pod says its sidecar's version; `inject` over a pod it
// injected brings the sidecar to what is asked now and changes nothing when nothing differs; the
// webhook leaves an injected pod alone; uninject takes out exactly what inject put in.
import test from 'ava';
import { injectPod } from '../../../src/injection/pipeline/inject-pod.js';
import { uninjectPod } from '../../../src/injection/render/uninject-pod.js';
import type { PodTemplate } from '../../../src/injection/pod.js';
import { VERSION } from '../../../src/version.js';
import { DEFAULTS, pod, sidecarOf } from '../../helpers/injection.js';

const injected = (template: PodTemplate, defaults = DEFAULTS): PodTemplate => {
  const result = injectPod(template, defaults, 'every-workload');
  if (result.outcome !== 'injected') throw new Error(JSON.stringify(result));
  return result.template;
};

const labelled = (value: string): PodTemplate => ({
  metadata: { labels: { app: 'x', 'sfd-sidecar.io/inject': value } },
  spec: { containers: [{ name: 'app', image: 'a' }] },
});

test('either spelling asks and either declines, on a pod as on a namespace: none is ignored for being the other', (t) => {
  for (const value of ['true', 'enabled']) t.is(injectPod(labelled(value), DEFAULTS, 'pod-asks').outcome, 'injected', value);
  for (const value of ['false', 'disabled']) {
    const declined = injectPod(labelled(value), DEFAULTS, 'namespace-asks');
    t.is(declined.outcome, 'skipped', value);
    if (declined.outcome === 'skipped') t.is(declined.code, 'opted-out', value);
  }
});

test('a pod asks with the label; "false" opts it out of its namespace; the label wins over the annotation', (t) => {
  t.is(injectPod(labelled('true'), DEFAULTS, 'pod-asks').outcome, 'injected');
  t.is(injectPod(pod(), DEFAULTS, 'pod-asks').outcome, 'skipped');
  t.is(injectPod(labelled('false'), DEFAULTS, 'namespace-asks').outcome, 'skipped');
  const both = labelled('false');
  both.metadata!.annotations = { 'sfd-sidecar.io/inject': 'true' };
  t.is(injectPod(both, DEFAULTS, 'pod-asks').outcome, 'skipped');
  const bad = injectPod(labelled('yes'), DEFAULTS, 'namespace-asks');
  t.is(bad.outcome, 'refused');
  if (bad.outcome === 'refused')
    t.regex(bad.problems[0]!, /label sfd-sidecar\.io\/inject: must be "true", "enabled", "false", "disabled" \(got "yes"\)/);
});

test('every injected pod carries the version of its sidecar', (t) => {
  t.is(injected(pod()).metadata?.annotations?.['sfd-sidecar.io/version'], VERSION);
});

test('inject over an injected pod brings its sidecar to the image asked now; the same ask changes nothing', (t) => {
  const once = injected(pod({ initContainers: [{ name: 'migrate', image: 'm' }] }));
  const same = injectPod(once, DEFAULTS, 'every-workload');
  t.is(same.outcome, 'skipped');
  const newer = injectPod(once, { ...DEFAULTS, image: 'registry.local/sfd-sidecar:9' }, 'every-workload');
  if (newer.outcome !== 'injected') return t.fail(JSON.stringify(newer));
  t.is(sidecarOf(newer.template)?.image, 'registry.local/sfd-sidecar:9');
  t.deepEqual(
    newer.template.spec.initContainers!.map((c) => c.name),
    ['sfd-sidecar', 'migrate'],
    'still one sidecar',
  );
  const webhook = { ...DEFAULTS, image: 'ghcr.io/sfd-sidecar/sfd-sidecar:9.9.9' };
  t.is(injectPod(once, webhook, 'pod-asks').outcome, 'skipped', 'the webhook of another version leaves it alone');
  const elsewhere = injectPod(once, { ...DEFAULTS, image: 'registry.local/sfd-sidecar:0.1.0' }, 'pod-asks');
  t.is(elsewhere.outcome, 'refused', 'the webhook refuses a sidecar from another repository than the one it adds');
});

const SHAPES: Record<string, PodTemplate> = {
  bare: { spec: { containers: [{ name: 'app', image: 'a' }] } },
  'init containers, env, volumes, labels, annotations': pod(
    {
      initContainers: [{ name: 'migrate', image: 'm' }],
      containers: [{ name: 'app', image: 'a', env: [{ name: 'A', value: '1' }] }],
      volumes: [{ name: 'data', emptyDir: {} }],
    },
    { team: 'billing' },
  ),
  'its own prometheus annotations and SFD_SIDECAR_URL': pod(
    { containers: [{ name: 'app', image: 'a', env: [{ name: 'SFD_SIDECAR_URL', value: 'http://elsewhere' }] }] },
    { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9100' },
  ),
  classic: pod({}, { 'sfd-sidecar.io/mode': 'classic' }),
  'ports moved': pod({ containers: [{ name: 'app', image: 'a', ports: [{ containerPort: 8080 }] }] }),
};

for (const [name, template] of Object.entries(SHAPES)) {
  test(`uninject(inject(x)) is x: ${name}`, (t) => {
    t.deepEqual(uninjectPod(injected(template)), template);
    t.deepEqual(uninjectPod(template), template, 'a pod without the sidecar is left as it is');
  });
}
