// GETs of the API server with the kubeconfig's credentials, each answer read whole under a size bound and
// parsed as JSON. What goes wrong on the way (no answer, an untrusted certificate, a refusal) becomes a
// KubeAccessError that says what to do.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { KubeAccessError, refusal, type KubeAsk } from './kube-access-error.js';
import type { KubeTarget } from './kube-config.js';

export interface KubeAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface KubeApi {
  readonly context: string;
  /** The answer to GET `path` (under the server's own path), whatever its status. */
  request(path: string, accept: string): Promise<KubeAnswer>;
  /** The JSON of a 200 answer; any other status throws the refusal that names `ask`. */
  ok(answer: KubeAnswer, ask: KubeAsk): unknown;
  /** Both: the JSON of GET `path`, as JSON. */
  get(path: string, ask: KubeAsk): Promise<unknown>;
}

const JSON_TYPE = 'application/json';
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;
const NO_ANSWER_MS = 30_000;

/** How a failed connection reads, by the error's code; the first whose pattern matches. */
const CONNECTION_PROBLEMS: readonly (readonly [RegExp, string])[] = [
  [/^ECONNREFUSED$/, 'nothing listens there (is the cluster running, and is this the context you meant?)'],
  [/^(ENOTFOUND|EAI_AGAIN)$/, 'its host name does not resolve'],
  [/^(ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ESOCKETTIMEDOUT)$/, 'no answer (a VPN, a firewall or a proxy in the way?)'],
  [/^(ECONNRESET|EPIPE)$/, 'the connection was closed before an answer'],
  [
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/,
    "its certificate is not one the kubeconfig's certificate authority trusts for that address",
  ],
];

function connectionProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const text = typeof code === 'string' ? code : '';
  const known = CONNECTION_PROBLEMS.find(([pattern]) => pattern.test(text));
  return known ? `${known[1]} (${text})` : error instanceof Error ? error.message : String(error);
}

export function kubeApi(target: KubeTarget): KubeApi {
  const base = target.server.pathname.replace(/\/$/, '');
  const unreachable = (error: unknown) =>
    new KubeAccessError(
      `cannot reach the API server ${target.server.origin} of context ${target.context}: ${connectionProblem(error)}`,
    );
  const failure = (error: unknown) => (error instanceof KubeAccessError ? error : unreachable(error));
  const request = (path: string, accept: string): Promise<KubeAnswer> =>
    new Promise((resolve, reject) => {
      const client = target.server.protocol === 'http:' ? http : https;
      const outgoing = client.request(
        target.server,
        {
          ...target.options,
          method: 'GET',
          path: `${base}${path}`,
          headers: { ...target.options.headers, accept, 'user-agent': 'sfd-sidecar' },
        },
        (answer) => void readAnswer(answer).then(resolve, (error: unknown) => reject(failure(error))),
      );
      outgoing.setTimeout(NO_ANSWER_MS, () =>
        outgoing.destroy(Object.assign(new Error('no answer'), { code: 'ETIMEDOUT' })),
      );
      outgoing.once('error', (error) => reject(failure(error)));
      outgoing.end();
    });
  const readAnswer = async (answer: IncomingMessage): Promise<KubeAnswer> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES)
        throw new KubeAccessError(`the API server's answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`);
      chunks.push(chunk);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // A refusal may come as text; a 200 that is not JSON is caught where it is used.
    }
    return { status: answer.statusCode ?? 0, body };
  };
  const ok = (answer: KubeAnswer, ask: KubeAsk): unknown => {
    if (answer.status !== 200)
      throw new KubeAccessError(refusal(ask, target.context, answer.status, messageOf(answer.body)));
    if (typeof answer.body !== 'object' || answer.body === null)
      throw new KubeAccessError(
        `the API server ${target.server.origin} answered ${ask.verb} ${ask.resource} with what is not JSON`,
      );
    return answer.body;
  };
  return {
    context: target.context,
    request,
    ok,
    get: async (path, ask) => ok(await request(path, JSON_TYPE), ask),
  };
}

/** The `message` of a Status the API server answers with, or nothing. */
const messageOf = (body: unknown): string =>
  typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
    ? (body as { message: string }).message
    : '';
