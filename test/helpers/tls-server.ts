// HTTPS servers with self-signed certificates made by openssl for the test: a fixed answer for TLS
// failure cases, and a TLS front that makes the emulator an HTTPS upstream. openssl runs as a child
// process the test awaits, never synchronously: a blocked event loop would stall every other test in
// the file, and their timers would fire late (an RSA key took seconds on a loaded CI machine).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ExecutionContext } from 'ava';
import { requireTool } from './tools.js';

const run = promisify(execFile);

/**
 * A P-256 key and a self-signed certificate for `commonName` (by default also its DNS subject alternative name), made
 * by openssl.
 */
export async function selfSignedCertificate(
  commonName: string,
  subjectAltName = `DNS:${commonName}`,
  keyType: 'ec' | 'rsa' = 'ec',
): Promise<{ keyFile: string; certFile: string }> {
  const openssl = requireTool('openssl', 'openssl');
  const dir = mkdtempSync(join(tmpdir(), 'sfd-tls-'));
  await run(openssl, [
    'req',
    '-x509',
    '-newkey',
    ...(keyType === 'ec' ? ['ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'] : ['rsa:2048']),
    '-nodes',
    '-days',
    '30',
    '-subj',
    `/CN=${commonName}`,
    '-addext',
    `subjectAltName=${subjectAltName}`,
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ]);
  return { keyFile: join(dir, 'key.pem'), certFile: join(dir, 'cert.pem') };
}

export async function startSelfSignedServer(
  t: ExecutionContext,
  commonName = 'localhost',
): Promise<{ port: number; certFile: string }> {
  const { keyFile, certFile } = await selfSignedCertificate(commonName);
  const server = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (_req, res) => {
    res
      .writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8', Date: new Date().toUTCString() })
      .end('{"id":1}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, certFile };
}

/**
 * A TLS front for a plain-HTTP server (the emulator), with a self-signed certificate for
 * `commonName`: the gateway as an HTTPS upstream, signatures still verified behind it.
 */
export async function startTlsFront(
  t: ExecutionContext,
  backendPort: number,
  commonName: string,
): Promise<{ port: number; certFile: string }> {
  const { keyFile, certFile } = await selfSignedCertificate(commonName);
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (client) => {
    const backend = net.connect({ host: '127.0.0.1', port: backendPort });
    sockets.add(client).add(backend);
    client.pipe(backend).pipe(client);
    const close = (): void => {
      client.destroy();
      backend.destroy();
    };
    client.once('error', close).once('close', close);
    backend.once('error', close).once('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, certFile };
}
