// A stand-in for the Kubernetes API server, over HTTPS on port 0, holding a few objects by path. It does
// what the injector relies on: GET answers the object, PUT replaces it only when the resourceVersion sent
// is the one stored (else 409 Conflict, as the API server answers), a wrong token gets 401, and a path it
// does not hold gets 404 with a Status body. Every call is recorded, so a test sees what was touched.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Teardown } from './injector-stack.js';
import { selfSignedCertificate } from './tls-server.js';

export interface FakeKubeApi {
  readonly baseUrl: string;
  readonly ca: string;
  readonly token: string;
  readonly calls: { method: string; path: string; status: number }[];
  object(path: string): Record<string, unknown> | undefined;
  put(path: string, object: Record<string, unknown>): void;
  remove(path: string): void;
  /** Answers the next `count` calls with this status (for outages and refusals). */
  failNext(count: number, status: number, message: string): void;
}

export async function startFakeKubeApi(
  t: Teardown,
  objects: Record<string, Record<string, unknown>>,
): Promise<FakeKubeApi> {
  const made = await selfSignedCertificate('localhost', 'DNS:localhost,IP:127.0.0.1');
  const token = 'test-service-account-token';
  const store = new Map<string, { object: Record<string, unknown>; version: number }>();
  let version = 1;
  const keep = (path: string, object: Record<string, unknown>) => {
    version += 1;
    const metadata = { ...(object.metadata as Record<string, unknown>), resourceVersion: String(version) };
    store.set(path, { object: { ...object, metadata }, version });
  };
  for (const [path, object] of Object.entries(objects)) keep(path, object);
  const calls: FakeKubeApi['calls'] = [];
  let failures: { count: number; status: number; message: string } = { count: 0, status: 0, message: '' };
  const status = (code: number, message: string) =>
    JSON.stringify({ kind: 'Status', status: 'Failure', message, code });
  const server = https.createServer(
    { key: readFileSync(made.keyFile), cert: readFileSync(made.certFile) },
    (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        const answer = (code: number, body: string) => {
          calls.push({ method: request.method ?? '', path, status: code });
          response.writeHead(code, { 'Content-Type': 'application/json' }).end(body);
        };
        if (failures.count > 0) {
          failures.count -= 1;
          return answer(failures.status, status(failures.status, failures.message));
        }
        if (request.headers.authorization !== `Bearer ${token}`) return answer(401, status(401, 'Unauthorized'));
        const stored = store.get(path);
        if (stored === undefined) return answer(404, status(404, `${path} not found`));
        if (request.method === 'GET') return answer(200, JSON.stringify(stored.object));
        if (request.method !== 'PUT') return answer(405, status(405, 'method not allowed'));
        const sent = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        const sentVersion = (sent.metadata as Record<string, unknown> | undefined)?.resourceVersion;
        if (sentVersion !== String(stored.version))
          return answer(
            409,
            status(409, 'the object has been modified; please apply your changes to the latest version'),
          );
        keep(path, sent);
        return answer(200, JSON.stringify(store.get(path)!.object));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ca: readFileSync(made.certFile, 'utf8'),
    token,
    calls,
    object: (path) => store.get(path)?.object,
    put: keep,
    remove: (path) => void store.delete(path),
    failNext(count, code, message) {
      failures = { count, status: code, message };
    },
  };
}
