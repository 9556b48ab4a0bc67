// The image a carried sidecar may run: the injector's own reference, or its repository at a release
// tag no older than the minimum. A digest other than the injector's own tells no version.
import test from 'ava';
import { sidecarImageProblem, VERSION_TAG, VERSION_TAG_FORM } from '../../../src/injection/decide/sidecar-version.js';

const expected = {
  ownImage: `ghcr.io/sfd-sidecar/sfd-sidecar:0.2.0@sha256:${'a'.repeat(64)}`,
  repository: 'ghcr.io/sfd-sidecar/sfd-sidecar',
  minimumVersion: '0.2.0',
};

test('the injector own reference and release tags no older than the minimum pass', (t) => {
  for (const image of [
    expected.ownImage,
    `${expected.repository}:0.2.0`,
    `${expected.repository}:0.10.0`,
    `${expected.repository}:1.0`,
  ])
    t.is(sidecarImageProblem(image, expected), null, image);
});

test('older releases, tags that are no version and foreign digests are refused, each with its reason', (t) => {
  const cases: [string, RegExp][] = [
    [`${expected.repository}:0.1.0`, /older than 0\.2\.0/],
    [`${expected.repository}:0.1`, /older than 0\.2\.0/],
    [`${expected.repository}:latest`, /no release version/],
    [`${expected.repository}:0.2.0@sha256:${'b'.repeat(64)}`, /digest that is not the injector's own/],
    [`${expected.repository}@sha256:${'b'.repeat(64)}`, /digest that is not the injector's own/],
    [`${expected.repository}-evil:9.9.9`, /not from ghcr\.io\/sfd-sidecar\/sfd-sidecar/],
    ['attacker.example/sfd-sidecar:9.9.9', /not from/],
  ];
  for (const [image, reason] of cases) t.regex(sidecarImageProblem(image, expected) ?? '', reason, image);
});

test('the written-out tag pattern is the form the admission policy reads, anchored', (t) => {
  t.is(VERSION_TAG.source, `^${VERSION_TAG_FORM}$`);
});
