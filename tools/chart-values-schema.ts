// The chart's values.schema.json: every value with its type, its allowed values and its description.
// The values that are sidecar settings take their pattern or allowed values from the code that checks
// those settings, so the chart refuses what the sidecar would refuse.
import { INJECTION_MODES } from '../src/injection/options.js';
import { IMAGE_PULL_POLICIES, KEYSTORE_LAYOUTS } from '../src/injection/injected-sidecar-settings.js';
import { LOG_LEVELS } from '../src/config/settings.js';
import { PROFILE_NAME_PATTERN } from '../src/config/profile-parsers.js';
import { DNS_LABEL, OBJECT_NAME } from '../src/config/parsers.js';
import { SIGNATURE_VERSIONS } from '../src/signing/types.js';
import { SETTINGS } from '../src/settings/all-settings.js';

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
/** A container probe; null (the value removed) or empty leaves the container without it. */
const probe = (description: string): Schema => ({ type: ['object', 'null'], description });

/** An image digest, as the runtime pulls it; empty for none. */
const DIGEST = 'sha256:[a-f0-9]{64}';
/** A registry host, with a port and a path of a mirror's own: what stands before the repository's path. */
const REGISTRY = '^([a-zA-Z0-9]([-a-zA-Z0-9.]*[a-zA-Z0-9])?(:[0-9]{1,5})?(/[-a-z0-9._]+)*/?)?$';
/** The values of one image: where it comes from and which of its versions. */
const imageValues = (description: string, extra: Record<string, Schema>): Schema =>
  object(description, {
    registry: string('Registry in place of the one the repository names; global.imageRegistry when empty.', {
      pattern: REGISTRY,
    }),
    repository: string('Image repository.', { minLength: 1 }),
    tag: string("Image tag, or TAG@sha256:... ; the chart's appVersion when empty.", {
      pattern: `^([A-Za-z0-9_][A-Za-z0-9._-]{0,127}(@${DIGEST})?)?$`,
    }),
    digest: string("Image digest, used only while tag is empty (with the appVersion's tag).", {
      pattern: `^(${DIGEST})?$`,
    }),
    ...extra,
  });

/** Secrets for pulling an image: names, or {name} items as a pod spec holds them. */
const pullSecrets = (description: string): Schema => ({
  type: 'array',
  description,
  items: {
    anyOf: [
      { type: 'string', ...OBJECT_NAME },
      { type: 'object', properties: { name: string('Secret name.', { ...OBJECT_NAME }) }, required: ['name'] },
    ],
  },
});

/** Items of a label selector's matchExpressions, as the API server accepts them. */
const LABEL_KEY =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$';
const LABEL_VALUE = '^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$';
const selectorTerms = (description: string): Schema => ({
  type: 'array',
  description,
  items: {
    type: 'object',
    required: ['key', 'operator'],
    additionalProperties: false,
    properties: {
      key: { type: 'string', pattern: LABEL_KEY },
      operator: { enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] },
      values: { type: 'array', items: { type: 'string', pattern: LABEL_VALUE } },
    },
    // In and NotIn need values; Exists and DoesNotExist take none.
    oneOf: [
      { properties: { operator: { enum: ['In', 'NotIn'] }, values: { minItems: 1 } }, required: ['values'] },
      { properties: { operator: { enum: ['Exists', 'DoesNotExist'] }, values: { maxItems: 0 } } },
    ],
  },
});

export function chartValuesSchema(): Schema {
  return {
    $schema: 'https://json-schema.org/draft-07/schema#',
    title: 'sfd-sidecar chart values',
    type: 'object',
    additionalProperties: false,
    required: ['keystore'],
    properties: {
      // Open to the values a parent chart shares with all its subcharts; those read here are checked.
      global: {
        type: 'object',
        description: 'Values shared with parent charts.',
        properties: {
          imageRegistry: string("Registry of the chart's images unless an image names its own.", {
            pattern: REGISTRY,
          }),
          imagePullSecrets: pullSecrets("Secrets for pulling the injector's image, before imagePullSecrets."),
        },
      },
      nameOverride: string('Overrides the chart name in resource names.'),
      fullnameOverride: string('Overrides the full resource name prefix.'),
      commonLabels: labels("Labels added to every object the chart renders; the chart's own win."),
      commonAnnotations: labels("Annotations added to every object the chart renders; an object's own win."),
      image: imageValues("The injector's image (sfd-sidecar's own).", {
        pullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'], description: 'Image pull policy.' },
      }),
      imagePullSecrets: pullSecrets("Secrets for pulling the image (the injector's pods and its helm test)."),
      sidecar: object("What the injector adds to a pod unless the pod's sfd-sidecar.io/ annotations say otherwise.", {
        image: imageValues("The image of the sidecar added to pods, apart from the injector's.", {
          pullPolicy: { enum: [...IMAGE_PULL_POLICIES], description: SETTINGS.imagePullPolicy.description },
        }),
        minimumVersion: string(`${SETTINGS.sidecarMinVersion.description}; the chart's appVersion when empty`, {
          pattern: '^([0-9]{1,9}[.][0-9]{1,9}[.][0-9]{1,9})?$',
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
          // Empty passes the schema so that the template's `required` says what to set: helm's schema
          // error for an empty value quotes the pattern, and for a missing one names no value to set.
          existingSecret: string(SETTINGS.keystoreSecret.description, {
            ...OBJECT_NAME,
            pattern: `^$|${OBJECT_NAME.pattern}`,
          }),
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
        namespaceSelectorExtra: selectorTerms(
          "More namespaceSelector terms of both webhooks, added to the chart's; the admission policy requires them.",
        ),
        objectSelectorExtra: selectorTerms(
          "More objectSelector terms of both webhooks, added to the chart's; the admission policy requires them too.",
        ),
        annotations: labels('Annotations of the MutatingWebhookConfiguration.'),
      }),
      certificates: object("The webhook's certificate.", {
        issuer: {
          enum: ['auto', 'injector', 'certManager', 'chart', 'existingSecret'],
          description:
            'auto: existingSecret or certManager when a Secret or an issuer is named, else cert-manager when ' +
            'the cluster serves its API, else the injector; injector (a CA it keeps and renews); certManager; ' +
            'chart (a CA generated at install, different at every render); or existingSecret (yours).',
        },
        validityDays: integer('Validity of a certificate the chart generates (issuer chart), in days.', 1),
        existingSecret: string("A Secret holding the webhook's serving certificate (tls.crt, tls.key), kept by you.", {
          pattern: `^(${OBJECT_NAME.pattern.replace(/^\^|\$$/g, '')})?$`,
        }),
        caBundle: string("The CA that signed existingSecret's certificate: PEM, or its base64.", {
          pattern: '^(-----BEGIN [\\s\\S]*|[A-Za-z0-9+/=\\s]*)$',
        }),
        certManager: object('cert-manager.', {
          issuerRef: object(
            "An issuer of yours that signs the serving certificate; empty: a CA of the release's own.",
            {
              name: string('Its name.'),
              kind: { enum: ['Issuer', 'ClusterIssuer'], description: 'Issuer or ClusterIssuer.' },
              group: string('Its API group.', { minLength: 1 }),
            },
          ),
        }),
      }),
      replicaCount: integer('Injector replicas.', 1),
      podDisruptionBudget: object('PodDisruptionBudget of the injector (when replicaCount is above 1).', {
        minAvailable: { type: ['integer', 'string'], description: 'Injector pods kept through voluntary disruptions.' },
      }),
      port: PORT('Webhook port of the injector (HTTPS).'),
      adminPort: PORT('Admin port of the injector: /healthz, /readyz, /metrics.'),
      hostNetwork: {
        type: 'boolean',
        description: "Run the injector in its node's network namespace, where the API server cannot reach pods.",
      },
      terminationGracePeriodSeconds: integer("Seconds the injector's pods get to stop.", 0),
      logLevel: { enum: [...LOG_LEVELS], description: SETTINGS.logLevel.description },
      extraEnv: passThrough('Extra environment variables for the injector.', 'array'),
      extraArgs: {
        type: 'array',
        description: 'Extra arguments of the injector: settings as flags, never --image (sidecar.image sets it).',
        // A flag wins over SFD_IMAGE: --image would inject an image the key store admission policy refuses.
        items: { type: 'string', not: { pattern: '^--image(=|$)' } },
      },
      extraVolumes: passThrough("Extra volumes of the injector's pods.", 'array'),
      extraVolumeMounts: passThrough("Extra volume mounts of the injector's container.", 'array'),
      livenessProbe: probe("Liveness probe of the injector's container; null removes it."),
      readinessProbe: probe("Readiness probe of the injector's container; null removes it."),
      startupProbe: probe("Startup probe of the injector's container; none when empty."),
      strategy: object("How the Deployment replaces the injector's pods; empty: Kubernetes' rolling update.", {
        type: { enum: ['RollingUpdate', 'Recreate'], description: 'The kind of replacement.' },
        rollingUpdate: object('maxSurge and maxUnavailable.', {
          maxSurge: { type: ['integer', 'string'], description: 'Pods started above the replicas.' },
          maxUnavailable: { type: ['integer', 'string'], description: 'Pods stopped below the replicas.' },
        }),
      }),
      revisionHistoryLimit: integer('Old ReplicaSets of the injector kept for rollback.', 0),
      service: object("The webhook's Service.", {
        annotations: labels('Its annotations.'),
      }),
      podAnnotations: labels("Annotations of the injector's pods."),
      podLabels: labels("Labels of the injector's pods."),
      resources: passThrough("Resources of the injector's container."),
      nodeSelector: labels("Node selector of the injector's pods."),
      tolerations: passThrough("Tolerations of the injector's pods.", 'array'),
      affinity: passThrough("Affinity of the injector's pods."),
      priorityClassName: string("Priority class of the injector's pods."),
      extraObjects: {
        type: 'array',
        description: 'More objects to install with the release, each rendered with tpl.',
        items: { type: ['object', 'string'] },
      },
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
