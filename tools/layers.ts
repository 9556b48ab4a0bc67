// The layering of src/, as rules the layering check enforces in `npm test`. A directory (or a file at
// the top of src/) may import only from those listed for it; everything else it imports is a layer
// above it. Each library is imported only by the modules named for it, so that swapping or upgrading
// it touches one place. Only the entry file reads the process (environment, arguments, signals, exit).

/** Each part of src/ and the parts it may import from. */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  // Foundations: no knowledge of HTTP, listeners or keys.
  'version.ts': [],
  'errors.ts': [],
  text: [],
  files: [],
  // The one loop that re-reads what a process keeps in use (last good value, deadline, directory watch).
  reload: [],
  // The protocol: pure functions of a request and a key.
  signing: [],
  // Which API calls a profile may sign: named operations and rules, pure.
  operations: ['text'],
  config: ['files', 'operations', 'signing'],
  observability: ['config', 'operations', 'version.ts'],
  // Plumbing: what every listener shares (inbound), and the calls out to the gateway and other hosts
  // (outbound: the egress proxy's route and tunnel, trusted certificates, reading an answer's start).
  http: ['errors.ts'],
  outbound: ['config'],
  server: ['config', 'errors.ts', 'http', 'observability'],
  keys: ['config', 'errors.ts', 'files', 'observability', 'operations', 'reload', 'signing', 'text'],
  // Features, each on the plumbing. Two use another feature: the injector serves `inject`'s injection,
  // and the emulator sends its recording notifications with the relay's own event builder and sender.
  // The emulator checks signatures with its own code, never the sidecar's: a shared mistake would pass.
  proxy: ['config', 'errors.ts', 'http', 'keys', 'observability', 'operations', 'outbound', 'signing'],
  // The relay's settings are a layer of their own, read by injection, which writes the sidecar's env.
  'notify/settings': ['config'],
  notify: ['config', 'errors.ts', 'http', 'notify/settings', 'observability', 'outbound', 'server'],
  admin: ['config', 'errors.ts', 'http', 'observability', 'server'],
  doctor: ['config', 'files', 'keys', 'outbound', 'signing'],
  emulator: ['config', 'notify', 'server'],
  // Injection, a slice whose stages are layers in the order a pod goes through them: what injection
  // adds and its options (the slice's root), the entitlement policy, the rules that decide, the render
  // of a decision, the pipeline that runs both, then what reads and edits manifests, answers reviews,
  // audits a cluster, keeps the webhook's certificates, and the commands over all of them.
  injection: ['config', 'notify/settings', 'operations', 'signing', 'text', 'version.ts'],
  'injection/policy': ['config', 'files', 'observability', 'operations', 'reload', 'text'],
  'injection/decide': ['config', 'injection', 'injection/policy', 'operations', 'text'],
  'injection/render': ['config', 'injection', 'injection/decide', 'operations', 'version.ts'],
  'injection/pipeline': ['injection', 'injection/decide', 'injection/render', 'text'],
  'injection/manifests': ['injection', 'injection/pipeline', 'injection/policy', 'keys', 'text'],
  'injection/certificates': ['files', 'observability', 'reload', 'text'],
  'injection/webhook': [
    'admin',
    'config',
    'errors.ts',
    'http',
    'injection',
    'injection/certificates',
    'injection/decide',
    'injection/pipeline',
    'injection/policy',
    'observability',
    'server',
    'version.ts',
  ],
  'injection/audit': ['config', 'injection', 'injection/decide', 'injection/manifests', 'text'],
  'injection/commands': [
    'command',
    'config',
    'files',
    'injection',
    'injection/audit',
    'injection/certificates',
    'injection/decide',
    'injection/manifests',
    'injection/policy',
    'injection/webhook',
    'observability',
    'operations',
    'text',
  ],
  // What every command shares (its I/O, its settings), below the slices' commands and the dispatcher.
  command: ['config', 'files', 'observability', 'text'],
  // The registry: every feature's settings assembled into the one list help, docs and the chart read.
  settings: ['config', 'injection', 'notify/settings'],
  // Wiring and the command line, above everything.
  'sidecar.ts': [
    'admin',
    'config',
    'errors.ts',
    'http',
    'keys',
    'observability',
    'operations',
    'outbound',
    'proxy',
    'server',
    'signing',
    'version.ts',
  ],
  cli: [
    'command',
    'config',
    'doctor',
    'emulator',
    'files',
    'injection/commands',
    'keys',
    'notify',
    'observability',
    'server',
    'settings',
    'sidecar.ts',
    'signing',
    'text',
  ],
  'cli.ts': ['cli', 'command', 'config', 'server', 'settings', 'version.ts'],
  'main.ts': ['cli.ts', 'files'],
  'warm-compile-cache.ts': ['cli.ts', 'cli', 'keys', 'notify'],
};

const HONO_APPS = [
  'admin/create-admin-app.ts',
  'emulator/',
  'injection/webhook/create-injector-app.ts',
  'notify/start-notify-relay.ts',
  'proxy/create-proxy-app.ts',
  'server/create-http-server.ts',
];

/** Libraries and the only modules (files, or directories ending in `/`) that may import them. */
export const LIBRARY_OWNERS: Readonly<Record<string, readonly string[]>> = {
  'http-proxy': ['proxy/http-proxy-adapter.ts'],
  'https-proxy-agent': ['outbound/tunnel-agent.ts'],
  'prom-client': [
    'observability/prom-client-parts.ts',
    'observability/metrics.ts',
    'observability/bound-series.ts',
    'observability/exposition.ts',
    'observability/event-loop-delay.ts',
  ],
  pino: ['observability/logger.ts'],
  yaml: ['text/yaml.ts', 'injection/manifests/kube-yaml.ts', 'injection/manifests/untouched-text.ts'],
  dotenv: ['config/setting-sources.ts'],
  'jsonc-parser': ['text/json-syntax.ts', 'text/json-edit.ts'],
  'fast-json-patch': ['injection/json-patch.ts'],
  'node-forge': ['injection/certificates/certificate-issuer.ts'],
  zod: ['notify/notifications.ts', 'keys/keystore-schema.ts'],
  // Only the kubeconfig and its credentials: the requests to the API server are the commands' own.
  '@kubernetes/client-node': ['injection/audit/kube/kube-config.ts'],
  // The receiving framework: the app of each listener, and the server they all run on.
  hono: [...HONO_APPS],
  '@hono/node-server': [...HONO_APPS],
};

/** Parts of src/ whose folders are layers of their own, checked one level down. */
export const SLICES: readonly string[] = ['injection', 'notify'];

/** The one file that may read `process`. */
export const PROCESS_OWNER = 'main.ts';
