// Makes the injector's own CA and the webhook's serving certificate. Node can parse certificates but
// not write them, so node-forge encodes them; the keys and the signatures come from Node's own crypto,
// whose RSA is native code rather than forge's arithmetic in JavaScript.
import { generateKeyPair, randomBytes, sign, X509Certificate } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';

const generate = promisify(generateKeyPair);

export interface IssuedPair {
  readonly cert: string;
  readonly key: string;
}

export interface Validity {
  readonly notBefore: number;
  readonly notAfter: number;
}

async function newKey(): Promise<{ publicKey: string; privateKey: string }> {
  return generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
}

function serialNumber(): string {
  const bytes = randomBytes(16);
  // A serial number is a positive integer: the leading bit stays clear.
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

function draft(publicKey: string, commonName: string, validity: Validity): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = new Date(validity.notBefore);
  cert.validity.notAfter = new Date(validity.notAfter);
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  return cert;
}

// forge exports the encoder of a certificate's signed part, though its types leave it out.
const encodeToBeSigned = (
  forge.pki as unknown as { getTBSCertificate: (cert: forge.pki.Certificate) => forge.asn1.Asn1 }
).getTBSCertificate;

/** The certificate signed with `signerKey` (RSA, SHA-256), as PEM. */
function signed(cert: forge.pki.Certificate, signerKey: string): string {
  cert.siginfo.algorithmOid = forge.pki.oids.sha256WithRSAEncryption!;
  cert.signatureOid = forge.pki.oids.sha256WithRSAEncryption!;
  const tbs = forge.asn1.toDer(encodeToBeSigned(cert)).getBytes();
  cert.signature = sign('sha256', Buffer.from(tbs, 'binary'), signerKey).toString('binary');
  return forge.pki.certificateToPem(cert);
}

/** A self-signed CA that signs serving certificates only. */
export async function issueCa(commonName: string, validity: Validity): Promise<IssuedPair> {
  const { publicKey, privateKey } = await newKey();
  const cert = draft(publicKey, commonName, validity);
  cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  return { cert: signed(cert, privateKey), key: privateKey };
}

/** A serving certificate for `dnsNames`, signed by `ca`. */
export async function issueServingCertificate(
  ca: IssuedPair,
  dnsNames: readonly string[],
  validity: Validity,
): Promise<IssuedPair> {
  const { publicKey, privateKey } = await newKey();
  const caCert = forge.pki.certificateFromPem(ca.cert);
  const cert = draft(publicKey, dnsNames[0] ?? 'sfd-sidecar-injector', validity);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: dnsNames.map((value) => ({ type: 2, value })) },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  return { cert: signed(cert, ca.key), key: privateKey };
}

/** The validity of a PEM certificate, or undefined when the text is not one. */
export function validityOf(pem: string): Validity | undefined {
  try {
    const cert = new X509Certificate(pem);
    return { notBefore: Date.parse(cert.validFrom), notAfter: Date.parse(cert.validTo) };
  } catch {
    return undefined;
  }
}

/** Whether `ca` signed `cert`, both PEM. */
export function signedBy(cert: string, ca: string): boolean {
  try {
    const leaf = new X509Certificate(cert);
    const issuer = new X509Certificate(ca);
    return leaf.checkIssued(issuer) && leaf.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/** The DNS names a certificate is for (its subject alternative names). */
export function dnsNamesOf(pem: string): string[] {
  try {
    const names = new X509Certificate(pem).subjectAltName ?? '';
    return names
      .split(', ')
      .filter((name) => name.startsWith('DNS:'))
      .map((name) => name.slice(4));
  } catch {
    return [];
  }
}
