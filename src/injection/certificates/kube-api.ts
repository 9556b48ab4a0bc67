// The few calls the injector makes to the Kubernetes API: read and replace one object. Replacing sends
// the object's resourceVersion, so the API server refuses a write based on a stale read (409), and two
// replicas never overwrite each other's certificates.
import https from 'node:https';
import { URL } from 'node:url';
import { isRecord } from '../../text/is-record.js';

export interface KubeApiTarget {
  /** The API server, for example https://10.0.0.1:443. */
  readonly baseUrl: string;
  /** The CA bundle the API server's certificate chains to (PEM). */
  readonly ca: string;
  /** The bearer token, read at each call: the kubelet rotates a projected token file. */
  readonly token: () => Promise<string>;
  readonly timeoutMs: number;
}

export interface KubeObject {
  readonly metadata: { readonly resourceVersion?: string; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

export type KubeAnswer =
  | { readonly ok: true; readonly object: KubeObject }
  | { readonly ok: false; readonly status: number; readonly message: string };

export interface KubeApi {
  get(path: string): Promise<KubeAnswer>;
  replace(path: string, object: KubeObject): Promise<KubeAnswer>;
}

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export function createKubeApi(target: KubeApiTarget): KubeApi {
  // One connection kept between calls: each reconcile makes several, and a new TLS handshake each time
  // costs the API server more than the calls themselves.
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: target.ca, timeout: target.timeoutMs });
  const call = async (method: 'GET' | 'PUT', path: string, body?: string): Promise<KubeAnswer> => {
    const url = new URL(path, target.baseUrl);
    const token = await target.token();
    return new Promise((resolve) => {
      const request = https.request(url, {
        method,
        agent,
        timeout: target.timeoutMs,
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${target.timeoutMs} ms`)));
      request.on('error', (error) => resolve({ ok: false, status: 0, message: error.message }));
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) return void request.destroy(new Error('answer too large'));
          chunks.push(chunk);
        });
        response.on('end', () => resolve(answerOf(response.statusCode ?? 0, Buffer.concat(chunks).toString())));
        response.on('error', (error) => resolve({ ok: false, status: 0, message: error.message }));
      });
      request.end(body);
    });
  };
  return {
    get: (path) => call('GET', path),
    replace: (path, object) => call('PUT', path, JSON.stringify(object)),
  };
}

function answerOf(status: number, text: string): KubeAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (status >= 200 && status < 300 && isRecord(parsed) && isRecord(parsed.metadata))
    return { ok: true, object: parsed as KubeObject };
  // The API server's Status object says why; its message never holds the object's data.
  const message = isRecord(parsed) && typeof parsed.message === 'string' ? parsed.message : `HTTP ${status}`;
  return { ok: false, status, message };
}
