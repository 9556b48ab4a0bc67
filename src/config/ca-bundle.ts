// SFD_UPSTREAM_CA_FILE: a PEM bundle of certificates. Node's TLS ignores a block it cannot read
// without a word, so a bundle of nothing would leave the gateway untrusted with no hint why; every
// block is checked here, and a problem is named by its line, never by the file's text.
import { X509Certificate } from 'node:crypto';

const BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** Why the bundle cannot be used, or null when every block is a certificate and there is one at least. */
export function caBundleProblem(text: string): string | null {
  let count = 0;
  for (const match of text.matchAll(BLOCK)) {
    count += 1;
    try {
      new X509Certificate(match[0]);
    } catch {
      return `the certificate at line ${text.slice(0, match.index).split('\n').length} is not a valid PEM certificate`;
    }
  }
  return count === 0 ? 'holds no PEM certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)' : null;
}
