// The commands, as data: what each does, how it is called, and its own options besides the settings.
// Parsing and help both derive from this table; each command's module loads only when it runs.
import type { CommandName } from '../config/settings.js';
import { SETTINGS } from '../config/settings.js';

export interface OptionDefinition {
  readonly name: string;
  /** The value's placeholder in help; absent for a switch. */
  readonly value?: string;
  readonly description: string;
  /** May be given more than once. */
  readonly multiple?: boolean;
  /** A one-letter form, as kubectl users type it (`-n`). */
  readonly short?: string;
}

export interface CommandDefinition {
  readonly name: CommandName;
  readonly summary: string;
  /** Everything after `sfd-sidecar NAME` in the usage line. */
  readonly usage: string;
  readonly options: readonly OptionDefinition[];
  /** Whether the command takes positional arguments (files, actions). */
  readonly positionals: boolean;
  /** A service that runs until a signal stops it (SIGTERM, SIGINT) and reloads on SIGHUP. */
  readonly service?: true;
}

const json: OptionDefinition = { name: 'json', description: 'print JSON instead of text' };

export const COMMANDS: readonly CommandDefinition[] = [
  {
    name: 'serve',
    summary: 'run the signing sidecar (the demo against the built-in emulator when nothing is configured)',
    usage: '[settings]',
    options: [],
    positionals: false,
    service: true,
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
      json,
    ],
    positionals: false,
  },
  {
    name: 'emulator',
    summary: 'run the local stand-in for the gateway, which verifies signatures strictly',
    usage: '[--listen HOST:PORT] [settings]',
    options: [{ name: 'listen', value: 'HOST:PORT', description: 'where it listens (default 127.0.0.1:8090)' }],
    positionals: false,
    service: true,
  },
  {
    name: 'keys',
    summary:
      'check a key store file (and print the kubectl command whose Secret carries its secret files), list the ' +
      'keys of a file or of the key store in use (never a secret), print the key store JSON Schema, or split ' +
      'a key store into one file per profile in DIR (made when missing)',
    usage: 'check FILE | list [FILE] [--json] | schema | split FILE DIR   [settings]',
    options: [json],
    positionals: true,
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
  },
  {
    name: 'doctor',
    summary: 'with the settings serve would use, tell why signing fails and which signature form the gateway accepts',
    usage: '[--json] [settings]',
    options: [json],
    positionals: false,
  },
  {
    name: 'wait-ready',
    summary: `wait until /readyz on ${SETTINGS.adminListen.env} answers 200 (a classic sidecar's postStart hook)`,
    usage: '[--timeout-ms N] [settings]',
    options: [{ name: 'timeout-ms', value: 'N', description: 'give up after this many milliseconds (default 60000)' }],
    positionals: false,
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
  },
  {
    name: 'uninject',
    summary: 'print Kubernetes manifests with what inject added taken out again',
    usage: 'FILE|- ...   (- reads standard input)',
    options: [],
    positionals: true,
  },
  {
    name: 'audit',
    summary:
      'read pods as kubectl get namespaces,pods -A -o json prints them: who asked for the sidecar and runs ' +
      'without it, who asks only by annotation, whose sidecar image is not the given version or image',
    usage: '[--version V | --image REF] FILE|-',
    options: [
      { name: 'version', value: 'V', description: "report the pods whose sidecar image's tag is not V" },
      {
        name: 'image',
        value: 'REF',
        description: 'report the pods whose sidecar does not run REF: by digest (the imageID of its status) or tag',
      },
      json,
    ],
    positionals: true,
  },
  {
    name: 'check',
    summary:
      'check an installation from what kubectl get -A -o json prints (injector, webhook, CA bundle, admission ' +
      'policy, key store Secrets, pods), or tell why one pod was (not) injected',
    usage: '[--pod NAME [-n NS]] [--json] [settings] FILE|-',
    options: [
      { name: 'pod', value: 'NAME', description: 'tell the decision the injector would take on this pod or workload' },
      { name: 'namespace', short: 'n', value: 'NS', description: 'the namespace of --pod (default: any)' },
      json,
    ],
    positionals: true,
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
      },
    ],
    positionals: true,
  },
  {
    name: 'injector',
    summary: 'serve the admission webhook that adds the sidecar to the pods that ask for it',
    usage: '[settings]',
    options: [],
    positionals: false,
    service: true,
  },
];

export const commandNamed = (name: string): CommandDefinition | undefined => COMMANDS.find((c) => c.name === name);
