// Injection defaults for tests, and the way to find the sidecar in a pod template.
import type { InjectionOptions } from '../../src/injection/options.js';
import type { Container, PodTemplate } from '../../src/injection/pod.js';
import { VERSION } from '../../src/version.js';

export const DEFAULTS: InjectionOptions = Object.freeze({
  image: `ghcr.io/sfd-sidecar/sfd-sidecar:${VERSION}`,
  imagePullPolicy: 'IfNotPresent',
  minimumVersion: VERSION,
  keystoreSecret: 'sfd-keys',
  keystoreKey: 'keystore.json',
  keystoreLayout: 'file',
  profile: 'default',
  upstreamUrl: 'https://base-api.swiftfederation.com',
  signatureVersion: null,
  mode: 'native',
  sidecarUser: 65532,
  cpuRequest: '50m',
  memoryRequest: '96Mi',
  cpuLimit: '',
  memoryLimit: '192Mi',
  signingPort: 8080,
  adminPort: 9090,
  envConfigMap: null,
  envSecret: null,
  allowedProfiles: [],
  profileHeader: null,
  operations: null,
});

export function sidecarOf(template: PodTemplate): Container | undefined {
  return [...(template.spec.initContainers ?? []), ...template.spec.containers].find((c) => c.name === 'sfd-sidecar');
}

export function envOf(container: Container | undefined): Record<string, string> {
  return Object.fromEntries((container?.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]));
}

export const pod = (spec: Partial<PodTemplate['spec']> = {}, annotations?: Record<string, string>): PodTemplate => ({
  metadata: { labels: { app: 'x' }, ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'app', image: 'example/app:1' }], ...spec },
});
