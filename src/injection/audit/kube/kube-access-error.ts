// A cluster that cannot be read, said so that a person can act on it: which kubeconfig, context, server,
// verb or resource is the matter, and what to do. The commands print it as it is and exit 2.

export class KubeAccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeAccessError';
  }
}

/** One request to the API server, as its refusal names it. */
export interface KubeAsk {
  readonly verb: 'list' | 'get';
  /** The resource, as kubectl names it (`pods`, `mutatingwebhookconfigurations`). */
  readonly resource: string;
  /** The namespace asked in; absent for the cluster scope. */
  readonly namespace?: string;
  /** The object's name, for a get. */
  readonly name?: string;
  /** Whether `-n NS` would make the ask one namespace's, for a list of a namespaced kind. */
  readonly narrowable?: boolean;
}

const scopeOf = (ask: KubeAsk): string =>
  ask.namespace === undefined ? 'at the cluster scope' : `in namespace ${ask.namespace}`;

const objectOf = (ask: KubeAsk): string => (ask.name === undefined ? ask.resource : `${ask.resource}/${ask.name}`);

/** What the API server's answer means for the person, by its status code. */
const REFUSALS: Readonly<Record<number, (ask: KubeAsk, context: string) => string>> = {
  401: (_, context) =>
    `the API server does not accept the credentials of context ${context} (401 Unauthorized): ` +
    'log in again (the token or certificate of the kubeconfig has expired or is not known there)',
  403: (ask, context) =>
    `cannot ${ask.verb} ${objectOf(ask)} ${scopeOf(ask)} as context ${context}'s user (403 Forbidden): ` +
    (ask.narrowable && ask.namespace === undefined
      ? `add -n NS or ask for ${ask.verb} on ${ask.resource} at the cluster scope`
      : `ask for ${ask.verb} on ${ask.resource} ${scopeOf(ask)}`),
  404: (ask) =>
    ask.name === undefined
      ? `the API server serves no ${ask.resource} (404 Not Found): its Kubernetes is older than this command reads`
      : `there is no ${ask.resource.replace(/s$/, '')} ${ask.name}` +
        `${ask.namespace === undefined ? '' : ` in namespace ${ask.namespace}`} (404 Not Found)`,
};

/** The sentence for an answer other than 200. */
export function refusal(ask: KubeAsk, context: string, status: number, reason: string): string {
  const sentence = REFUSALS[status];
  return sentence
    ? sentence(ask, context)
    : `the API server answered ${status} to ${ask.verb} ${objectOf(ask)} ${scopeOf(ask)}${reason ? `: ${reason}` : ''}`;
}
