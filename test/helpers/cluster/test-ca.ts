// A throwaway CA in a folder, and certificates it signs, made by openssl: the control plane's client
// certificates and the webhook's serving certificate come from the same two steps.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DAYS = '2';

/** Writes ca.key and ca.crt into the folder. */
export async function makeCa(dir: string, commonName: string): Promise<void> {
  await run(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt'],
      ...['-days', DAYS, '-subj', `/CN=${commonName}`, '-addext', 'basicConstraints=critical,CA:TRUE'],
    ],
    { cwd: dir },
  );
}

/** Writes NAME.key and NAME.crt, signed by the folder's CA, with the extensions given (an extfile's text). */
export async function signedByCa(dir: string, name: string, subject: string, extensions?: string): Promise<void> {
  await run(
    'openssl',
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject],
    { cwd: dir },
  );
  const extfile = extensions === undefined ? [] : ['-extfile', `${name}.ext`];
  if (extensions !== undefined) writeFileSync(join(dir, `${name}.ext`), extensions);
  await run(
    'openssl',
    [
      ...['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'],
      ...['-days', DAYS, ...extfile, '-out', `${name}.crt`],
    ],
    { cwd: dir },
  );
}
