// Hop-by-hop headers (RFC 9110 §7.6.1) never cross the sidecar, in either direction, whatever the
// Connection headers say, and the request headers that do go keep the caller's order. The common
// Connection values share one read-only set (the hot path builds none for them); the results must be
// those of reading every Connection header in full, call after call.
import test from 'ava';
import fc from 'fast-check';
import {
  prepareOutgoingHeaders,
  responseHeadersForCaller,
  upstreamHeaderLines,
} from '../../../src/proxy/outgoing-headers.js';

const RESPONSE_HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'transfer-encoding',
  'upgrade',
  'trailer',
  'te',
];

/** The plain definition: every token of every Connection header names a header to drop. */
function namedByConnection(raw: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) if (token.trim()) named.add(token.trim().toLowerCase());
  }
  return named;
}

const pairs = (raw: readonly string[]): string[][] =>
  raw.flatMap((_, i) => (i % 2 === 0 ? [[raw[i]!, raw[i + 1]!]] : []));

const headerName = fc.constantFrom(
  'Connection',
  'connection',
  'Keep-Alive',
  'X-Hop',
  'x-other',
  'Content-Type',
  'close',
);
const connectionValue = fc.constantFrom(
  'keep-alive',
  'Keep-Alive',
  'close',
  'Close',
  'X-Hop',
  'keep-alive, X-Hop',
  ' close ',
  'x-other,close',
  '',
);
const header = fc.oneof(
  fc.tuple(fc.constant('Connection'), connectionValue),
  fc.tuple(headerName, fc.constantFrom('1', 'timeout=5', 'application/json')),
);
const rawHeaders = fc.array(header, { maxLength: 6 }).map((list) => list.flat());

test(
  'the caller gets the upstream headers minus hop-by-hop and Connection-named ones, in order, for any sequence ' +
    'of messages',
  (t) => {
    fc.assert(
      fc.property(fc.array(rawHeaders, { minLength: 1, maxLength: 5 }), (messages) => {
        for (const raw of messages) {
          const named = namedByConnection(raw);
          const expected = pairs(raw).filter(
            ([name]) => !RESPONSE_HOP_BY_HOP.includes(name!.toLowerCase()) && !named.has(name!.toLowerCase()),
          );
          t.deepEqual(pairs(responseHeadersForCaller(raw, 200)), expected);
        }
      }),
    );
  },
);

test('a request asks for the connection to close exactly when a Connection header names close', (t) => {
  fc.assert(
    fc.property(fc.array(rawHeaders, { minLength: 1, maxLength: 5 }), (messages) => {
      for (const raw of messages) {
        const named = namedByConnection(raw);
        const prepared = prepareOutgoingHeaders(raw);
        t.is(prepared.closeRequested, named.has('close'));
        for (let i = 0; i < prepared.lines.length; i += 2) {
          const name = prepared.lines[i] as string;
          t.false(named.has(name.toLowerCase()), `${name} was named by Connection`);
        }
      }
    }),
  );
});

test(
  'a second Connection header after a common one still drops the headers it names, and does not leak into the ' +
    'next message',
  (t) => {
    const first = responseHeadersForCaller(
      ['Connection', 'keep-alive', 'Connection', 'X-Hop', 'X-Hop', '1', 'X-Kept', '2'],
      200,
    );
    t.deepEqual(first, ['X-Kept', '2']);
    const next = responseHeadersForCaller(['Connection', 'keep-alive', 'X-Hop', '1'], 200);
    t.deepEqual(next, ['X-Hop', '1'], 'the shared keep-alive set was not added to');
    t.true(prepareOutgoingHeaders(['Connection', 'Close', 'Connection', 'X-Private', 'X-Private', 'p']).closeRequested);
    t.deepEqual(prepareOutgoingHeaders(['Connection', 'close', 'X-Private', 'p']).lines, ['X-Private', 'p']);
  },
);

const REQUEST_DROPPED = [
  'host',
  'content-length',
  'content-type',
  'authorization',
  'x-sfd-date',
  'x-sfd-nonce',
  'x-sfd-signature-version',
];
const REQUEST_HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
];
const requestName = fc.constantFrom(
  'Accept',
  'accept',
  'X-A',
  'x-a',
  'X-SFD-Zone',
  'x-sfd-zone',
  'Host',
  'Content-Type',
  'TE',
  'Connection',
  'X-Hop',
);
const requestHeaders = fc.array(fc.tuple(requestName, fc.constantFrom('1', '2', 'X-Hop', 'close', 'text/plain')), {
  maxLength: 10,
});

test(
  "the caller's headers go upstream in the caller's order, a repeated name once where it first appeared with its " +
    'values in order',
  (t) => {
    fc.assert(
      fc.property(requestHeaders, (list) => {
        const raw = list.flat();
        const named = namedByConnection(raw);
        // The plain definition: keep what is neither replaced nor hop-by-hop, then group by name in order of first
        // appearance.
        const expected: { name: string; values: string[] }[] = [];
        for (const [name, value] of list) {
          const lower = name.toLowerCase();
          if (REQUEST_DROPPED.includes(lower) || REQUEST_HOP_BY_HOP.includes(lower) || named.has(lower)) continue;
          const group = expected.find((g) => g.name.toLowerCase() === lower);
          if (group) group.values.push(value);
          else expected.push({ name, values: [value] });
        }
        const { lines } = prepareOutgoingHeaders(raw);
        const actual: { name: string; values: string[] }[] = [];
        for (let i = 0; i < lines.length; i += 2)
          actual.push({ name: lines[i] as string, values: ([] as string[]).concat(lines[i + 1]!) });
        t.deepEqual(actual, expected);
      }),
    );
  },
);

test("each attempt sends Host first, the caller's lines, then the signature headers and the body length", (t) => {
  const signed = {
    Host: 'gw.example:8443',
    'Content-Type': 'application/json; charset=utf-8',
    'X-SFD-Date': '20260101T000000Z',
    'X-SFD-Nonce': '123456789012345678',
    'X-SFD-Signature-Version': '2',
    Authorization: 'HMAC-SHA256 AK:sig',
  } as const;
  const caller = ['Accept', '*/*', 'X-Two', ['a', 'b']];
  t.deepEqual(upstreamHeaderLines(caller, signed, 12), [
    'Host',
    'gw.example:8443',
    'Accept',
    '*/*',
    'X-Two',
    ['a', 'b'],
    'Content-Type',
    'application/json; charset=utf-8',
    'X-SFD-Date',
    '20260101T000000Z',
    'X-SFD-Nonce',
    '123456789012345678',
    'X-SFD-Signature-Version',
    '2',
    'Authorization',
    'HMAC-SHA256 AK:sig',
    'Content-Length',
    '12',
  ]);
  t.deepEqual(
    upstreamHeaderLines([], signed, null).filter((_, i) => i % 2 === 0),
    ['Host', 'Content-Type', 'X-SFD-Date', 'X-SFD-Nonce', 'X-SFD-Signature-Version', 'Authorization'],
  );
  t.deepEqual(
    caller,
    ['Accept', '*/*', 'X-Two', ['a', 'b']],
    "the caller's lines are not changed: a retry builds its own",
  );
});
