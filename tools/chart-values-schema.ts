// The chart's values.schema.json: every value with its type, its allowed values and its description.
// The values that are sidecar settings take their pattern or allowed values from the code that checks
// those settings, so the chart refuses what the sidecar would refuse.
import { INJECTION_MODES } from '../src/injection/options.js';
import { IMAGE_PULL_POLICIES, KEYSTORE_LAYOUTS, LOG_LEVELS } from '../src/config/settings.js';
import { PROFILE_NAME_PATTERN } from '../src/config/profile-parsers.js';
import { DNS_LABEL, OBJECT_NAME } from '../src/config/parsers.js';
import { SIGNATURE_VERSIONS } from '../src/signing/types.js';
import { SETTINGS } from '../src/config/settings.js';

type Schema = Record<string, unknown>;

/** A Kubernetes quantity, written as a string or a number. */
const QUANTITY = '[0-9]+(\\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?';
const quantityValue = (description: string): Schema => ({
  description,
  anyOf: [
    { type: 'string', pattern: `^${QUANTITY}$` },
    { type: 'number', exclusiveMinimum: 0 },
  ],
});

const object = (description: string, properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: 'object',
  description,
  properties,
  additionalProperties: false,
  ...extra,
});
const string = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const integer = (description: string, minimum: number, maximum?: number): Schema => ({
  type: 'integer',
  description,
  minimum,
  ...(maximum === undefined ? {} : { maximum }),
});
/** Free-form Kubernetes structures the chart passes through (resources, affinity...). */
const passThrough = (description: string, type: 'object' | 'array' = 'object'): Schema => ({ type, description });
const labels = (description: string): Schema => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string' },
});

const PORT = (description: string): Schema => integer(description, 1, 65535);

export function chartValuesSchema(): Schema {
  return {
    $schema: 'https://json-schema.org/draft-07/schema#',
    title: 'sfd-sidecar chart values',
    type: 'object',
    additionalProperties: false,
    required: ['keystore'],
    properties: {
      global: { type: 'object', description: 'Values shared with parent charts (unused).' },
      nameOverride: string('Overrides the chart name in resource names.'),
      fullnameOverride: string('Overrides the full resource name prefix.'),
      image: object("The injector's image (sfd-sidecar's own).", {
        repository: string('Image repository.', { minLength: 1 }),
        tag: string("Image tag; the chart's appVersion when empty."),
        pullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'], description: 'Image pull policy.' },
      }),
      imagePullSecrets: {
        type: 'array',
        description: "Secrets for pulling the image (the injector's pods).",
        items: { type: 'object', properties: { name: string('Secret name.') }, required: ['name'] },
      },
      sidecar: object("What the injector adds to a pod unless the pod's sfd-sidecar.io/ annotations say otherwise.", {
        image: object("The image of the sidecar added to pods, apart from the injector's.", {
          repository: string('Image repository.', { minLength: 1 }),
          tag: string("Image tag; the chart's appVersion when empty."),
          digest: string('Image digest; when set, it is used instead of the tag.', {
            pattern: '^(sha256:[a-f0-9]{64})?$',
          }),
          pullPolicy: { enum: [...IMAGE_PULL_POLICIES], description: SETTINGS.imagePullPolicy.description },
        }),
        mode: { enum: [...INJECTION_MODES], description: SETTINGS.sidecarMode.description },
        resources: object(
          "The sidecar's requests and limits; a pod's annotations win.",
          {
            requests: object('Requests.', {
              cpu: quantityValue(SETTINGS.sidecarCpuRequest.description),
              memory: quantityValue(SETTINGS.sidecarMemoryRequest.description),
            }),
            limits: object('Limits.', {
              cpu: {
                description: SETTINGS.sidecarCpuLimit.description,
                anyOf: [
                  { type: 'string', pattern: `^(${QUANTITY})?$` },
                  { type: 'number', exclusiveMinimum: 0 },
                ],
              },
              memory: quantityValue(SETTINGS.sidecarMemoryLimit.description),
            }),
          },
          { required: ['requests', 'limits'] },
        ),
        user: {
          description: SETTINGS.sidecarUser.description,
          anyOf: [{ type: 'integer', minimum: 1, maximum: 2147483647 }, { const: 'platform' }],
        },
        upstreamUrl: string(SETTINGS.upstreamUrl.description, { pattern: '^(https?://[^\\s/?#@]+(/[^\\s?#]*)?)?$' }),
        profile: string(SETTINGS.profile.description, { pattern: PROFILE_NAME_PATTERN.source }),
        // People write `signatureVersion: 2` as well as "2".
        signatureVersion: {
          description: `${SETTINGS.signatureVersion.description}; empty for the sidecar's default`,
          enum: ['', ...SIGNATURE_VERSIONS, ...SIGNATURE_VERSIONS.map(Number)],
        },
      }),
      serviceAccount: object("The injector's ServiceAccount.", {
        create: { type: 'boolean', description: 'Create it.' },
        name: string('Its name; the release full name when empty.'),
        annotations: { type: 'object', description: 'Its annotations.', additionalProperties: { type: 'string' } },
      }),
      topologySpreadConstraints: {
        type: 'array',
        description: "How the injector's replicas spread; empty: across nodes.",
        items: { type: 'object' },
      },
      networkPolicy: object('A NetworkPolicy for the injector.', {
        enabled: { type: 'boolean', description: 'Create it.' },
        webhookFrom: { type: 'array', description: 'Who may reach the webhook port.', items: { type: 'object' } },
        metricsFrom: { type: 'array', description: 'Who may reach the metrics port.', items: { type: 'object' } },
      }),
      keystore: object(
        'The key store Secret every injected sidecar mounts.',
        {
          existingSecret: string(SETTINGS.keystoreSecret.description, { ...OBJECT_NAME }),
          key: string(SETTINGS.keystoreSecretKey.description, { pattern: '^[-._a-zA-Z0-9]+$' }),
          layout: { enum: [...KEYSTORE_LAYOUTS], description: SETTINGS.keystoreLayout.description },
        },
        { required: ['existingSecret'] },
      ),
      admissionPolicy: object('The admission policy that keeps the key store to the sidecar.', {
        enabled: {
          type: 'boolean',
          description:
            'Ship a ValidatingAdmissionPolicy (Kubernetes 1.30+) that refuses a pod whose containers other ' +
            'than the sidecar read the key store Secret.',
        },
      }),
      policy: object('The entitlement policy the injector applies.', {
        entitlements: {
          type: 'array',
          description:
            'Which namespaces (and service accounts) may use which profiles; a pod outside it is refused. ' +
            'Empty: no policy, every profile may be used.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['namespace', 'profiles'],
            properties: {
              namespace: { type: 'string', ...DNS_LABEL },
              serviceAccounts: { type: 'array', minItems: 1, items: { type: 'string', ...OBJECT_NAME } },
              profiles: { type: 'array', minItems: 1, items: { type: 'string', pattern: PROFILE_NAME_PATTERN.source } },
            },
          },
        },
      }),
      webhook: object('The MutatingWebhookConfiguration.', {
        failurePolicy: {
          enum: ['Ignore', 'Fail'],
          description:
            'What the API server does when the injector cannot be reached: Ignore (pods start without the ' +
            'sidecar) or Fail.',
        },
        timeoutSeconds: integer('Seconds the API server waits for the injector.', 1, 30),
        excludeNamespaces: {
          type: 'array',
          items: { type: 'string', ...DNS_LABEL },
          description: "Namespaces never touched besides kube-system and the release's own.",
        },
      }),
      certificates: object("The webhook's certificate.", {
        issuer: {
          enum: ['auto', 'injector', 'certManager', 'chart'],
          description:
            'auto: cert-manager when the cluster serves its API, else the injector; injector (a CA it keeps ' +
            'and renews); certManager; or chart (a CA generated at install, different at every render).',
        },
        validityDays: integer('Validity of a certificate the chart generates (issuer chart), in days.', 1),
      }),
      replicaCount: integer('Injector replicas.', 1),
      podDisruptionBudget: object('PodDisruptionBudget of the injector (when replicaCount is above 1).', {
        minAvailable: { type: ['integer', 'string'], description: 'Injector pods kept through voluntary disruptions.' },
      }),
      port: PORT('Webhook port of the injector (HTTPS).'),
      adminPort: PORT('Admin port of the injector: /healthz, /readyz, /metrics.'),
      logLevel: { enum: [...LOG_LEVELS], description: SETTINGS.logLevel.description },
      extraEnv: passThrough('Extra environment variables for the injector.', 'array'),
      podAnnotations: labels("Annotations of the injector's pods."),
      podLabels: labels("Labels of the injector's pods."),
      resources: passThrough("Resources of the injector's container."),
      nodeSelector: labels("Node selector of the injector's pods."),
      tolerations: passThrough("Tolerations of the injector's pods.", 'array'),
      affinity: passThrough("Affinity of the injector's pods."),
      priorityClassName: string("Priority class of the injector's pods."),
      podSecurityContext: passThrough('Pod security context of the injector (restricted profile).'),
      securityContext: passThrough('Container security context of the injector (restricted profile).'),
      metrics: object('Monitoring with prometheus-operator and Grafana.', {
        podMonitor: object('PodMonitors for every injected pod and for the injector.', {
          enabled: { type: 'boolean', description: 'Create them.' },
          interval: string('Scrape interval.', { pattern: '^[0-9]+(ms|s|m|h)$' }),
          sampleLimit: integer('Most samples one scrape of an injected pod may return.', 1),
          labels: labels('Extra labels, e.g. the release label your Prometheus selects.'),
        }),
        prometheusRule: object("The sidecar's alerting rules.", {
          enabled: { type: 'boolean', description: 'Create the PrometheusRule (with metrics.podMonitor.enabled).' },
          labels: labels('Extra labels.'),
        }),
        grafanaDashboard: object("The Grafana dashboard, for Grafana's sidecar loader.", {
          enabled: { type: 'boolean', description: 'Create the ConfigMap.' },
          labels: labels('Labels Grafana selects.'),
        }),
      }),
    },
  };
}
