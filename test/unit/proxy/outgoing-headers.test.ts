// Hop-by-hop headers (RFC 9110 §7.6.1) never cross the sidecar, in either direction, whatever the
// Connection headers say. The common Connection values share one read-only set (the hot path builds
// none for them); the results must be those of reading every Connection header in full, call after call.
import test from 'ava';
import fc from 'fast-check';
import { prepareOutgoingHeaders, responseHeadersForCaller } from '../../../src/proxy/outgoing-headers.js';

const RESPONSE_HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'trailer', 'te'];

/** The plain definition: every token of every Connection header names a header to drop. */
function namedByConnection(raw: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) if (token.trim()) named.add(token.trim().toLowerCase());
  }
  return named;
}

const pairs = (raw: readonly string[]): string[][] => raw.flatMap((_, i) => (i % 2 === 0 ? [[raw[i]!, raw[i + 1]!]] : []));

const headerName = fc.constantFrom('Connection', 'connection', 'Keep-Alive', 'X-Hop', 'x-other', 'Content-Type', 'close');
const connectionValue = fc.constantFrom('keep-alive', 'Keep-Alive', 'close', 'Close', 'X-Hop', 'keep-alive, X-Hop', ' close ', 'x-other,close', '');
const header = fc.oneof(
  fc.tuple(fc.constant('Connection'), connectionValue),
  fc.tuple(headerName, fc.constantFrom('1', 'timeout=5', 'application/json')),
);
const rawHeaders = fc.array(header, { maxLength: 6 }).map((list) => list.flat());

test('the caller gets the upstream headers minus hop-by-hop and Connection-named ones, in order, for any sequence of messages', (t) => {
  fc.assert(
    fc.property(fc.array(rawHeaders, { minLength: 1, maxLength: 5 }), (messages) => {
      for (const raw of messages) {
        const named = namedByConnection(raw);
        const expected = pairs(raw).filter(([name]) => !RESPONSE_HOP_BY_HOP.includes(name!.toLowerCase()) && !named.has(name!.toLowerCase()));
        t.deepEqual(pairs(responseHeadersForCaller(raw)), expected);
      }
    }),
  );
});

test('a request asks for the connection to close exactly when a Connection header names close', (t) => {
  fc.assert(
    fc.property(fc.array(rawHeaders, { minLength: 1, maxLength: 5 }), (messages) => {
      for (const raw of messages) {
        const named = namedByConnection(raw);
        const prepared = prepareOutgoingHeaders(raw);
        t.is(prepared.closeRequested, named.has('close'));
        for (const name of Object.keys(prepared.headers)) t.false(named.has(name.toLowerCase()), `${name} was named by Connection`);
      }
    }),
  );
});

test('a second Connection header after a common one still drops the headers it names, and does not leak into the next message', (t) => {
  const first = responseHeadersForCaller(['Connection', 'keep-alive', 'Connection', 'X-Hop', 'X-Hop', '1', 'X-Kept', '2']);
  t.deepEqual(first, ['X-Kept', '2']);
  const next = responseHeadersForCaller(['Connection', 'keep-alive', 'X-Hop', '1']);
  t.deepEqual(next, ['X-Hop', '1'], 'the shared keep-alive set was not added to');
  t.true(prepareOutgoingHeaders(['Connection', 'Close', 'Connection', 'X-Private', 'X-Private', 'p']).closeRequested);
  t.deepEqual(prepareOutgoingHeaders(['Connection', 'close', 'X-Private', 'p']).headers, { 'X-Private': 'p' });
});
