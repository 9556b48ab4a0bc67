// The dot-segment check (a caller must not climb out of the upstream's path prefix) is one
// regular expression on the hot path; it must refuse exactly the paths that splitting on every
// separator form and looking at each segment would refuse.
import test from 'ava';
import fc from 'fast-check';
import { hasDotSegment } from '../../../src/proxy/request-target.js';

/**
 * The plain definition: separators `/`, `%2f`, `%5c` and `\`, any case; a segment that, without its path
 * parameters (from `;` or `%3b` on), is one or two `.` or `%2e`.
 */
function hasDotSegmentBySplitting(path: string): boolean {
  return path
    .replace(/%2f|%5c|\\/gi, '/')
    .split('/')
    .some((segment) => /^(\.|%2e){1,2}$/i.test(segment.replace(/(;|%3b).*$/i, '')));
}

/** Paths built from the pieces that matter: dots, encoded dots and separators in both cases, stray `%`s, letters. */
const piece = fc.constantFrom(
  '/',
  '.',
  '%2e',
  '%2E',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '\\',
  '%',
  '2',
  'e',
  'a',
  'v1.1',
  '..',
  ';',
  '%3b',
  '%3B',
  'x=1',
);
const path = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

test('the check agrees with splitting the path into segments, for any path', (t) => {
  fc.assert(
    fc.property(path, (candidate) => hasDotSegment(candidate) === hasDotSegmentBySplitting(candidate)),
    { numRuns: 20_000 },
  );
  t.pass();
});

test('ordinary API paths pass and every escape form is caught', (t) => {
  for (const ok of ['/v1.1/customer/12345', '/a/.b/c', '/a/b../c', '/a/%2e%2e%2e/b', '/file.json', '/'])
    t.false(hasDotSegment(ok), ok);
  for (const bad of [
    '/..',
    '/a/../b',
    '/%2e%2e/admin',
    '/v1.1/..%2F..%2Fadmin',
    '/a/.%2e/b',
    '/a/./b',
    '/a\\..\\b',
    '/a%5C%2E',
    '/..;/admin',
    '/%2e%2e;/admin',
    '/..%3b/admin',
    '/a/.;x=1/b',
    '/..%3B',
  ]) {
    t.true(hasDotSegment(bad), bad);
  }
  for (const ok of ['/a;b/c', '/v1.1;x/customer', '/a/...;/b']) t.false(hasDotSegment(ok), ok);
});
