// Whether what claims to be a pod has the shape the injection reads: the fields it looks at have the
// types Kubernetes gives them. An API server never sends anything else, but a caller of the webhook or
// a manifest given to `inject` may; each problem names the field (never its value).
import { isRecord } from '../../text/is-record.js';

type Check = (value: unknown, at: string, problems: string[]) => void;

const MAX_PROBLEMS = 5;
/** More containers than any pod runs: a pod made to be large, whose injection would cost memory for nothing. */
const MAX_CONTAINERS = 1000;

const is = (test: (value: unknown) => boolean, what: string): Check => {
  return (value, at, problems) => {
    if (value !== undefined && value !== null && !test(value)) problems.push(`${at}: must be ${what}`);
  };
};

const string = is((v) => typeof v === 'string', 'a string');
const boolean = is((v) => typeof v === 'boolean', 'true or false');
const integer = is((v) => Number.isInteger(v), 'a whole number');
const port = is((v) => Number.isInteger(v) || typeof v === 'string', 'a port number or name');
const quantity = is((v) => typeof v === 'string' || typeof v === 'number', 'a quantity');
const strings = list(string);
const stringMap = mapOf(string);

function list(item: Check, required = false): Check {
  return (value, at, problems) => {
    if (value === undefined || value === null) {
      if (required) problems.push(`${at}: is required`);
      return;
    }
    if (!Array.isArray(value)) return void problems.push(`${at}: must be a list`);
    value.forEach((entry, index) => {
      if (entry === null || entry === undefined) problems.push(`${at}[${index}]: must not be empty`);
      else item(entry, `${at}[${index}]`, problems);
    });
  };
}

function mapOf(item: Check): Check {
  return (value, at, problems) => {
    if (value === undefined || value === null) return;
    if (!isRecord(value)) return void problems.push(`${at}: must be a mapping`);
    // A mapping's entry has a value: null is not an absent field here but a value of the wrong type.
    for (const [key, entry] of Object.entries(value))
      if (entry === null) problems.push(`${at}.${key}: must not be empty`);
      else item(entry, `${at}.${key}`, problems);
  };
}

function fields(shape: Record<string, Check>, required: readonly string[] = []): Check {
  return (value, at, problems) => {
    if (value === undefined || value === null) return;
    if (!isRecord(value)) return void problems.push(`${at}: must be an object`);
    for (const name of required)
      if (value[name] === undefined || value[name] === null) problems.push(`${at}.${name}: is required`);
    for (const [name, check] of Object.entries(shape)) check(value[name], `${at}.${name}`, problems);
  };
}

const probe = fields({
  httpGet: fields({ port }),
  tcpSocket: fields({ port }),
  grpc: fields({ port: integer }),
});
const resources = fields({ requests: mapOf(quantity), limits: mapOf(quantity) });
const securityContext = fields({
  runAsUser: integer,
  runAsGroup: integer,
  runAsNonRoot: boolean,
  privileged: boolean,
  allowPrivilegeEscalation: boolean,
  capabilities: fields({ add: strings, drop: strings }),
});
const container = fields(
  {
    name: string,
    command: strings,
    args: strings,
    ports: list(fields({ containerPort: integer, hostPort: integer, name: string })),
    env: list(
      fields(
        {
          name: string,
          value: string,
          valueFrom: fields({ secretKeyRef: fields({ name: string }), configMapKeyRef: fields({ name: string }) }),
        },
        ['name'],
      ),
    ),
    envFrom: list(fields({ secretRef: fields({ name: string }), configMapRef: fields({ name: string }) })),
    volumeMounts: list(fields({ name: string, mountPath: string, readOnly: boolean, subPath: string }, ['name'])),
    securityContext,
    resources,
    livenessProbe: probe,
    readinessProbe: probe,
    startupProbe: probe,
    restartPolicy: string,
  },
  ['name'],
);
const podSpec = fields(
  {
    containers: list(container, true),
    initContainers: list(container),
    ephemeralContainers: list(container),
    volumes: list(
      fields(
        {
          name: string,
          secret: fields({ secretName: string }),
          hostPath: fields({ path: string }),
          projected: fields({ sources: list(fields({ secret: fields({ name: string }) })) }),
        },
        ['name'],
      ),
    ),
    hostNetwork: boolean,
    hostPID: boolean,
    shareProcessNamespace: boolean,
    restartPolicy: string,
    terminationGracePeriodSeconds: integer,
    securityContext,
    resources,
    os: fields({ name: string }),
    nodeSelector: stringMap,
    affinity: fields({
      nodeAffinity: fields({
        requiredDuringSchedulingIgnoredDuringExecution: fields({
          nodeSelectorTerms: list(
            fields({ matchExpressions: list(fields({ key: string, operator: string, values: strings })) }),
          ),
        }),
      }),
    }),
  },
  ['containers'],
);
const podTemplate = fields(
  {
    metadata: fields({
      name: string,
      generateName: string,
      namespace: string,
      labels: stringMap,
      annotations: stringMap,
    }),
    spec: podSpec,
  },
  ['spec'],
);

/** What is wrong with the pod's shape (at most a few problems, each naming a field); empty when nothing. */
export function podShapeProblems(template: unknown, at = 'pod'): string[] {
  const problems: string[] = [];
  if (!isRecord(template)) return [`${at}: must be an object`];
  const spec = template.spec as { containers?: unknown; initContainers?: unknown } | undefined;
  const count = [spec?.containers, spec?.initContainers].reduce<number>(
    (sum, list) => sum + (Array.isArray(list) ? list.length : 0),
    0,
  );
  if (count > MAX_CONTAINERS)
    return [`${at}.spec: ${count} containers, more than the ${MAX_CONTAINERS} a pod may have here`];
  podTemplate(template, at, problems);
  return problems.slice(0, MAX_PROBLEMS);
}
