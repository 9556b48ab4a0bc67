// The decision on a pod whose judging failed: an exception the rules did not foresee. Under the
// webhook's `failurePolicy: Ignore` an HTTP error would admit the pod unjudged, so the failure is a
// decision like any other (reason `judging-failed`): refused when the pod asked for the sidecar itself,
// carries one, or reads the key store, since admitting it would admit whatever it carries; otherwise
// left without the sidecar, with a warning. Only the few fields that tell these apart are read, each
// checked before it is used, so that reading them cannot fail in turn; a pod that still defeats them is
// refused. The failure is named by the error's class and where it was thrown, never by its message,
// which may quote a value of the pod.
import { asks, INJECT_LABEL, KEYSTORE_VOLUME, SIDECAR_NAME } from '../contract.js';
import { annotationOf, type InjectionOptions } from '../options.js';
import type { StringMap } from '../pod.js';
import { isRecord } from '../../text/is-record.js';
import type { OptIn } from './facts.js';

/** What a failed judging decides, and the failure as a log line names it. */
export interface FailedJudgement {
  readonly kind: 'refuse' | 'skip';
  readonly problem: string;
  /** The error's class and the code it was thrown from. */
  readonly failure: string;
}

export interface FailedJudgementInput {
  readonly defaults: Pick<InjectionOptions, 'keystoreSecret'>;
  readonly optIn: OptIn;
  readonly inherited?: Readonly<StringMap>;
}

/** The rule a failed judging is reported under, as the rules of rules.ts are. */
export const JUDGED_WITHOUT_FAILURE = 'isJudgedWithoutFailure';

export function failedJudgement(template: unknown, input: FailedJudgementInput, error: unknown): FailedJudgement {
  const failure = describeFailure(error);
  const problem = `the injector failed while judging it (${failure.split(' ')[0]}); its log names where`;
  return { kind: refuses(template, input) ? 'refuse' : 'skip', problem, failure };
}

/** Whether the pod is refused: it asked, or carries keys; also when even reading that fails. */
function refuses(template: unknown, input: FailedJudgementInput): boolean {
  try {
    return asksItself(template, input.optIn) || carriesKeys(template, input);
  } catch {
    return true;
  }
}

/** The error's class and the first frame of its stack (a function and a file of this program). */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return 'a thrown non-error value';
  const name = typeof error.name === 'string' && /^\w{1,64}$/.test(error.name) ? error.name : 'Error';
  // The stack begins with the name and message; the frames after it hold only code locations.
  const stack = typeof error.stack === 'string' ? error.stack : '';
  const header = safeHeader(error);
  const frames = stack.startsWith(header) ? stack.slice(header.length) : '';
  const lines = frames
    .split('\n')
    .map((line) => line.trimStart())
    .filter((line) => line.startsWith('at '))
    .map((line) => line.slice('at '.length, 300));
  const frame = lines.find((line) => /\.[jt]s:\d/.test(line)) ?? lines[0];
  return frame === undefined ? name : `${name} at ${withoutDirectories(frame)}`;
}

/**
 * A stack frame without the directories of its file (`fn (file:///app/dist/x.js:1:2)` is
 * `fn (x.js:1:2)`): they say nothing the file's name does not, and differ between installs.
 */
function withoutDirectories(frame: string): string {
  const open = frame.lastIndexOf('(');
  const location = open === -1 ? frame : frame.slice(open + 1, frame.endsWith(')') ? -1 : undefined);
  const file = location.slice(location.lastIndexOf('/') + 1);
  return open === -1 ? file : `${frame.slice(0, open)}(${file})`;
}

function safeHeader(error: Error): string {
  try {
    return String(error);
  } catch {
    return '\u0000';
  }
}

/** The pod asked by its own label (the webhook sees no annotation), or `inject` was asked for it. */
function asksItself(template: unknown, optIn: OptIn): boolean {
  if (optIn === 'every-workload') return true;
  const labels = member(member(template, 'metadata'), 'labels');
  return asks(member(labels, INJECT_LABEL));
}

/**
 * The pod carries a sidecar, or a container of it could read the key store: a container named as the
 * sidecar, the sidecar's key store volume, or a volume, variable or `envFrom` naming a key store Secret
 * (the default one, or the one its annotation names).
 */
function carriesKeys(template: unknown, input: FailedJudgementInput): boolean {
  const annotation = annotationOf('keystoreSecret');
  const own =
    annotation === undefined ? undefined : member(member(member(template, 'metadata'), 'annotations'), annotation);
  const inherited = annotation === undefined ? undefined : input.inherited?.[annotation];
  const secrets = new Set<unknown>(
    [input.defaults.keystoreSecret, own, inherited].filter((s) => typeof s === 'string'),
  );
  const spec = member(template, 'spec');
  const volumes = entries(member(spec, 'volumes'));
  if (
    volumes.some(
      (volume) =>
        member(volume, 'name') === KEYSTORE_VOLUME ||
        secrets.has(member(member(volume, 'secret'), 'secretName')) ||
        entries(member(member(volume, 'projected'), 'sources')).some((source) =>
          secrets.has(member(member(source, 'secret'), 'name')),
        ),
    )
  )
    return true;
  const containers = ['initContainers', 'containers', 'ephemeralContainers'].flatMap((list) =>
    entries(member(spec, list)),
  );
  return containers.some(
    (container) =>
      member(container, 'name') === SIDECAR_NAME ||
      entries(member(container, 'env')).some((env) =>
        secrets.has(member(member(member(env, 'valueFrom'), 'secretKeyRef'), 'name')),
      ) ||
      entries(member(container, 'envFrom')).some((from) => secrets.has(member(member(from, 'secretRef'), 'name'))),
  );
}

/** An object's own member, or undefined when the value is not an object or has no such member. */
function member(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** A list's entries; none when the value is not a list. */
const entries = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
