// The commands, as data: what each does, how it is called, its own options besides the settings, and
// how it runs. Parsing, help, shell completion, the generated command references and the commands each
// setting names all derive from this table. A command's module is imported only when it runs, so that
// `serve` loads only what it needs: a command is one row here and one module.
import type { CommandResult, RunningService } from '../command/cli-io.js';
import type { CommandDefinition, OptionDefinition } from './command-definition.js';
import { SETTINGS } from '../config/settings.js';
import { OUTPUT_FORMATS } from '../command/output-format.js';

/** The result of a command that ends, with its exit code. */
const exited = async (exitCode: number | Promise<number>): Promise<CommandResult> => ({ exitCode: await exitCode });
/** The result of a service, which runs until a signal stops it. */
const serving = async (service: Promise<RunningService>): Promise<CommandResult> => ({ service: await service });

const json: OptionDefinition = { name: 'json', description: 'the same as -o json' };
const output: OptionDefinition = {
  name: 'output',
  short: 'o',
  value: 'json|yaml',
  description: 'print one JSON or YAML document instead of text, of the shape docs/command-line.md gives',
  choices: OUTPUT_FORMATS,
};

const context: OptionDefinition = {
  name: 'context',
  value: 'NAME',
  description: "without FILE: the kubeconfig's context to read the cluster of (default: its current context)",
};
const kubeconfig: OptionDefinition = {
  name: 'kubeconfig',
  value: 'FILE',
  description: 'without FILE: the kubeconfig to read the cluster with (default: KUBECONFIG, else ~/.kube/config)',
};

const TABLE = [
  {
    name: 'serve',
    summary: 'run the signing sidecar (the demo against the built-in emulator when nothing is configured)',
    usage: '[settings]',
    options: [],
    positionals: false,
    examples: [
      ['sfd-sidecar', 'run the demo: the sidecar in front of the built-in emulator'],
      [
        `${SETTINGS.upstreamUrl.env}=https://base-api.swiftfederation.com ${SETTINGS.keystoreFile.env}=keystore.json ` +
          'sfd-sidecar serve',
        'sign for the gateway with the keys of a key store',
      ],
    ],
    service: true,
    run: async ({ settings }, deps) => serving((await import('./serve-command.js')).serveCommand(settings, deps)),
  },
  {
    name: 'sign',
    summary: 'print what the sidecar would send for one request: the string to sign, the signature, the headers',
    usage: '--url URL [--method M] [--header "X-SFD-Name: value"]... [--body TEXT | --body-file PATH] [settings]',
    options: [
      {
        name: 'url',
        value: 'URL',
        description: 'the absolute http:// or https:// URL of the request, with its path and query',
      },
      { name: 'method', value: 'METHOD', description: 'the HTTP method (default GET)' },
      {
        name: 'header',
        value: '"NAME: VALUE"',
        description: 'an X-SFD-* header of the caller, signed under scheme 2',
        multiple: true,
      },
      { name: 'body', value: 'TEXT', description: 'the body' },
      { name: 'body-file', value: 'PATH', description: 'a file holding the body' },
      { name: 'date', value: 'yyyyMMddTHHmmssZ', description: 'the X-SFD-Date to use (default now)' },
      { name: 'nonce', value: 'DIGITS', description: 'the X-SFD-Nonce to use (default a fresh one)' },
      output,
      json,
    ],
    positionals: false,
    examples: [
      [
        'sfd-sidecar sign --url https://gateway.example/v1.1/customer/1 --access-key-id AK --access-key-secret-file s',
        'the string to sign, the signature and the headers of one GET',
      ],
      [
        'sfd-sidecar sign --url URL --method POST --body \'{"a":1}\' -o json',
        'the same for a POST, as one JSON document',
      ],
    ],
    run: async ({ settings, options }, deps) =>
      exited((await import('./sign-command.js')).signCommand(settings, options, deps)),
  },
  {
    name: 'emulator',
    summary: 'run the local stand-in for the gateway, which verifies signatures strictly',
    usage: '[--listen HOST:PORT] [settings]',
    options: [{ name: 'listen', value: 'HOST:PORT', description: 'where it listens (default 127.0.0.1:8090)' }],
    positionals: false,
    examples: [['sfd-sidecar emulator --listen 127.0.0.1:8090', 'run the local gateway on port 8090']],
    service: true,
    run: async ({ settings, options }, deps) =>
      serving((await import('./emulator-command.js')).emulatorCommand(settings, options, deps)),
  },
  {
    name: 'keys',
    summary:
      'check a key store file (and print the kubectl command whose Secret carries its secret files), list the ' +
      'keys of a file or of the key store in use (never a secret), print the key store JSON Schema, or split ' +
      'a key store into one file per profile in DIR (made when missing)',
    usage: 'check FILE | list [FILE] [--json] | schema | split FILE DIR   [settings]',
    options: [output, json],
    positionals: true,
    subcommands: ['check', 'list', 'schema', 'split'],
    examples: [
      ['sfd-sidecar keys check keystore.json', 'validate a key store file: every problem, with its line and column'],
      ['sfd-sidecar keys list keystore.json -o yaml', 'its profiles and keys (never a secret) as YAML'],
      ['sfd-sidecar keys split keystore.json per-profile/', 'one file per profile, for the per-profile layout'],
    ],
    run: async ({ positionals, settings, options }, deps) =>
      exited((await import('./keys-command.js')).keysCommand(positionals, settings, options, deps)),
  },
  {
    name: 'notify',
    summary: 'send one notification event to a callback URL, as the service would',
    usage:
      '--url URL --status started|ended|error [--recording-id ID] [--stream-id ID] [--type recording|stream-status]',
    options: [
      { name: 'url', value: 'URL', description: 'the callback URL, e.g. http://127.0.0.1:8081/notifications' },
      { name: 'status', value: 'STATUS', description: 'started, ended or error' },
      { name: 'recording-id', value: 'ID', description: 'the recording (default a new one)' },
      { name: 'stream-id', value: 'ID', description: 'the stream (default stream-demo-1)' },
      { name: 'type', value: 'TYPE', description: 'recording (default) or stream-status' },
    ],
    positionals: false,
    examples: [
      [
        'sfd-sidecar notify --url http://127.0.0.1:8081/notifications --status started',
        'send a recording-started event to the relay',
      ],
    ],
    run: async ({ options }, deps) => exited((await import('./notify-command.js')).notifyCommand(options, deps)),
  },
  {
    name: 'doctor',
    summary: 'with the settings serve would use, tell why signing fails and which signature form the gateway accepts',
    usage: '[--json] [settings]',
    options: [output, json],
    positionals: false,
    examples: [
      [
        `${SETTINGS.upstreamUrl.env}=https://base-api.swiftfederation.com ${SETTINGS.keystoreFile.env}=keystore.json ` +
          'sfd-sidecar doctor',
        'tell why signing fails and which signature form the gateway accepts',
      ],
    ],
    run: async ({ settings, options }, deps) =>
      exited((await import('./doctor-command.js')).doctorCommand(settings, options, deps)),
  },
  {
    name: 'wait-ready',
    summary: `wait until /readyz on ${SETTINGS.adminListen.env} answers 200 (a classic sidecar's postStart hook)`,
    usage: '[--timeout-ms N] [settings]',
    options: [{ name: 'timeout-ms', value: 'N', description: 'give up after this many milliseconds (default 60000)' }],
    positionals: false,
    examples: [['sfd-sidecar wait-ready --timeout-ms 30000', 'wait up to 30 s for the sidecar to be ready']],
    run: async ({ settings, options }, deps) =>
      exited((await import('./wait-ready-command.js')).waitReadyCommand(settings, options, deps)),
  },
  {
    name: 'inject',
    summary: 'print Kubernetes manifests with the sidecar added to every pod template',
    usage: '[--namespace NAME] [settings] FILE|- ...   (- reads standard input)',
    options: [
      {
        name: 'namespace',
        value: 'NAME',
        description:
          'the namespace of objects that name none, as kubectl applies them (default: default); the ' +
          'entitlement policy is checked against it',
      },
    ],
    positionals: true,
    examples: [
      [
        'kubectl get deploy/app -o yaml | sfd-sidecar inject --keystore-secret sfd-keys - | kubectl apply -f -',
        'add the sidecar to a running Deployment',
      ],
      [
        'sfd-sidecar inject --keystore-secret sfd-keys app.yaml > injected.yaml',
        'add it to manifests before they are committed',
      ],
    ],
    run: async ({ positionals, options, settings }, deps) =>
      exited(
        (await import('../injection/commands/inject-command.js')).injectCommand(positionals, options, settings, deps),
      ),
  },
  {
    name: 'uninject',
    summary: 'print Kubernetes manifests with what inject added taken out again',
    usage: 'FILE|- ...   (- reads standard input)',
    options: [],
    positionals: true,
    examples: [['sfd-sidecar uninject injected.yaml > app.yaml', 'take out again what inject added']],
    run: async ({ positionals }, deps) =>
      exited((await import('../injection/commands/uninject-command.js')).uninjectCommand(positionals, deps)),
  },
  {
    name: 'audit',
    summary:
      'read the pods of the cluster, or as kubectl get namespaces,pods -A -o json prints them: ' +
      'who asked for the sidecar and runs ' +
      'without it, who asks only by annotation, whose sidecar image is not the given version or image',
    usage: '[--version V | --image REF] [-n NS] [--context NAME] [--kubeconfig FILE] [FILE|-]',
    options: [
      { name: 'version', value: 'V', description: "report the pods whose sidecar image's tag is not V" },
      {
        name: 'image',
        value: 'REF',
        description: 'report the pods whose sidecar does not run REF: by digest (the imageID of its status) or tag',
      },
      {
        name: 'namespace',
        short: 'n',
        value: 'NS',
        description: 'without FILE: read this namespace only (default: all of them)',
      },
      context,
      kubeconfig,
      output,
      json,
    ],
    positionals: true,
    examples: [
      ['sfd-sidecar audit', "the cluster of the kubeconfig's current context: the pods to act on"],
      ['kubectl get namespaces,pods -A -o json | sfd-sidecar audit -', 'the same, from what kubectl prints (offline)'],
      [
        'kubectl get pods -A -o json | sfd-sidecar audit --version 0.2.0 -o json -',
        'the pods whose sidecar is not 0.2.0, as JSON',
      ],
    ],
    run: async ({ positionals, options }, deps) =>
      exited((await import('../injection/commands/audit-command.js')).auditCommand(positionals, options, deps)),
  },
  {
    name: 'check',
    summary:
      'check an installation, read from the cluster or from what kubectl get -A -o json prints (injector, ' +
      'webhook, CA bundle, admission policy, key store Secrets, pods), or tell why one pod was (not) injected',
    usage: '[--pod NAME [-n NS]] [--json] [settings] [--context NAME] [--kubeconfig FILE] [FILE|-]',
    options: [
      { name: 'pod', value: 'NAME', description: 'tell the decision the injector would take on this pod or workload' },
      { name: 'namespace', short: 'n', value: 'NS', description: 'the namespace of --pod (default: any)' },
      context,
      kubeconfig,
      output,
      json,
    ],
    positionals: true,
    examples: [
      ['sfd-sidecar check', "check the injector, webhook, key store Secrets and pods of the current context's cluster"],
      [
        'kubectl get namespaces,pods,deployments,secrets,mutatingwebhookconfigurations -A -o json ' +
          '| sfd-sidecar check -',
        'the same, from what kubectl prints (offline)',
      ],
      [
        'kubectl get namespaces,deployments,pods -A -o json | sfd-sidecar check --pod web -n shop -',
        'why the pods of Deployment web in shop are (not) injected',
      ],
    ],
    run: async ({ positionals, options, settings }, deps) =>
      exited(
        (await import('../injection/commands/check-command.js')).checkCommand(positionals, options, settings, deps),
      ),
  },
  {
    name: 'policy',
    summary: 'suggest the smallest operations each profile needs, from request log lines or sfd_requests_total series',
    usage: 'suggest [--from log|metrics] FILE|-',
    options: [
      {
        name: 'from',
        value: 'log|metrics',
        description: 'request log lines (default), or /metrics text or a Prometheus query answer',
        choices: ['log', 'metrics'],
      },
      output,
    ],
    positionals: true,
    subcommands: ['suggest'],
    examples: [
      [
        'kubectl logs deploy/app -c sfd-sidecar | sfd-sidecar policy suggest -',
        'the operations each profile needs, from request log lines',
      ],
    ],
    run: async ({ positionals, options }, deps) =>
      exited((await import('../injection/commands/policy-command.js')).policyCommand(positionals, options, deps)),
  },
  {
    name: 'injector',
    summary: 'serve the admission webhook that adds the sidecar to the pods that ask for it',
    usage: '[settings]',
    options: [],
    positionals: false,
    examples: [['sfd-sidecar injector', 'serve the admission webhook (the chart runs it)']],
    service: true,
    run: async ({ settings }, deps) =>
      serving((await import('../injection/commands/injector-command.js')).injectorCommand(settings, deps)),
  },
  {
    name: 'completion',
    summary: 'print the shell completion script of sfd-sidecar (and kubectl-sfd) for bash, zsh or fish',
    usage: 'bash|zsh|fish',
    options: [],
    positionals: true,
    subcommands: ['bash', 'zsh', 'fish'],
    examples: [
      ['source <(sfd-sidecar completion bash)', 'complete commands and options in this bash (add it to ~/.bashrc)'],
      ['sfd-sidecar completion zsh > "${fpath[1]}/_sfd-sidecar"', 'install it for zsh (then run compinit)'],
      ['sfd-sidecar completion fish > ~/.config/fish/completions/sfd-sidecar.fish', 'install it for fish'],
    ],
    run: async ({ positionals }, deps) =>
      exited((await import('./completion-command.js')).completionCommand(positionals, deps, COMMANDS)),
  },
] as const satisfies readonly CommandDefinition[];

/** The name of a command of the table. */
export type CommandName = (typeof TABLE)[number]['name'];

export const COMMANDS: readonly CommandDefinition[] = TABLE;

/** Every command's name, in the table's order. */
export const COMMAND_NAMES: readonly CommandName[] = TABLE.map((command) => command.name);

export const commandNamed = (name: string): CommandDefinition | undefined => COMMANDS.find((c) => c.name === name);
