// The per-request shortcut for the signer's own four canonical headers gives exactly what the general
// builder gives for the same fields.
import test from 'ava';
import fc from 'fast-check';
import { buildCanonicalHeaders, canonicalHeadersOfSignerFields } from '../../../src/signing/canonical-headers.js';

const general = (host: string, date: string, nonce: string): string =>
  buildCanonicalHeaders([
    { name: 'Host', value: host },
    { name: 'X-SFD-Date', value: date },
    { name: 'X-SFD-Nonce', value: nonce },
    { name: 'X-SFD-Signature-Version', value: '2' },
  ]);

test('the signer-only block is the general block for typical fields', (t) => {
  for (const host of ['api.example.com', '127.0.0.1:8443', '[::1]:9000']) {
    t.is(
      canonicalHeadersOfSignerFields(host, '20261122T073000Z', '123456789012345678'),
      general(host, '20261122T073000Z', '123456789012345678'),
    );
  }
  t.is(
    canonicalHeadersOfSignerFields('h', 'd', 'n'),
    'host:h\nx-sfd-date:d\nx-sfd-nonce:n\nx-sfd-signature-version:2\n',
  );
});

test('the signer-only block equals the general block for any host, date and nonce', (t) => {
  const headerValue = fc.string({ unit: fc.constantFrom('a', 'z', '0', '.', ':', '-', ' ', '[', ']'), maxLength: 40 });
  const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 18 });
  fc.assert(
    fc.property(
      headerValue,
      digits,
      digits,
      (host, date, nonce) => canonicalHeadersOfSignerFields(host, date, nonce) === general(host, date, nonce),
    ),
  );
  t.pass();
});
