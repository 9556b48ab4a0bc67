// A certificate and its private key checked to be usable together by a TLS server.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createSecureContext } from 'node:tls';

export interface TlsPair {
  readonly cert: string;
  readonly key: string;
  /** When the certificate stops being valid (ISO 8601). */
  readonly validTo: string;
}

/** The pair, or which half is unusable and why (never the text itself). */
export function loadPemPair(
  cert: string,
  key: string,
): { ok: true; pair: TlsPair } | { ok: false; which: 'cert' | 'key'; problem: string } {
  let validTo: string;
  try {
    validTo = new Date(new X509Certificate(cert).validTo).toISOString();
  } catch {
    return { ok: false, which: 'cert', problem: 'not a PEM certificate' };
  }
  try {
    createPrivateKey(key);
    createSecureContext({ cert, key });
  } catch {
    return { ok: false, which: 'key', problem: 'not a PEM private key for that certificate' };
  }
  return { ok: true, pair: { cert, key, validTo } };
}
