// An HTTPS server with a self-signed certificate made by openssl for the test, for TLS failure cases.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { requireTool } from './tools.js';

export async function startSelfSignedServer(t: ExecutionContext, commonName = 'localhost'): Promise<{ port: number; certFile: string }> {
  const openssl = requireTool('openssl', 'openssl');
  const dir = mkdtempSync(join(tmpdir(), 'sfd-tls-'));
  execFileSync(openssl, [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', `/CN=${commonName}`,
    '-addext', `subjectAltName=DNS:${commonName}`,
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  const server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8', Date: new Date().toUTCString() }).end('{"id":1}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, certFile: join(dir, 'cert.pem') };
}
