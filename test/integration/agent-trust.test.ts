// The TLS trust the upstream's keep-alive agent is built with (SFD_UPSTREAM_CA_FILE): the CA file's
// certificate is trusted beside the system roots, another is not, and the pool is named without the
// certificates (Node's https agent joins a `ca` option into the pool's name, about 200 KB with the
// roots, on every request: 3.5 ms of CPU per request through the sidecar before this was a context).
import { readFileSync } from 'node:fs';
import https from 'node:https';
import test from 'ava';
import { agentTrust } from '../../src/outbound/trusted-certificates.js';
import { selfSignedCertificate, startSelfSignedServer } from '../helpers/tls-server.js';

function get(port: number, agent: https.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get({ host: 'localhost', port, path: '/', agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

test("no CA file: Node's own roots, nothing set", (t) => {
  t.deepEqual(agentTrust(null), {});
});

test(
  'with the CA file the agent reaches the server, keeps one connection and names its pool without the ' +
    'certificates',
  async (t) => {
    const server = await startSelfSignedServer(t, 'localhost');
    const agent = new https.Agent({ keepAlive: true, ...agentTrust(readFileSync(server.certFile, 'utf8')) });
    t.teardown(() => agent.destroy());
    const statuses = [await get(server.port, agent), await get(server.port, agent), await get(server.port, agent)];
    t.deepEqual(statuses, [200, 200, 200]);
    const pools = Object.keys(agent.freeSockets);
    t.is(pools.length, 1, 'one pool for every request');
    t.is(agent.freeSockets[pools[0]!]!.length, 1, 'one kept-alive connection, reused');
    t.true(pools[0]!.length < 1000, `the pool's name is ${pools[0]!.length} characters long`);
  },
);

test("a certificate other than the CA file's is refused", async (t) => {
  const server = await startSelfSignedServer(t, 'localhost');
  const other = await selfSignedCertificate('localhost');
  const agent = new https.Agent({ keepAlive: true, ...agentTrust(readFileSync(other.certFile, 'utf8')) });
  t.teardown(() => agent.destroy());
  const error = await t.throwsAsync(get(server.port, agent));
  t.regex((error as NodeJS.ErrnoException).code ?? '', /SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
});
