// The re-sign path's states: the log line of a re-sign leaves with the transition that ends it, once,
// and a transition the table does not list from a state is refused.
import test from 'ava';
import {
  FIRST_ATTEMPT,
  keyRefused,
  RESIGN_TRANSITIONS,
  settle,
  type HeldRefusal,
  type PendingResign,
} from '../../../src/proxy/resign-state.js';

const refused = { code: 'Signature.KeyExpired' } as unknown as HeldRefusal;
const pending: PendingResign = {
  profile: 'default',
  refusedAccessKeyId: 'AK-OLD',
  retryAccessKeyId: 'AK-NEW',
  upstreamCode: 'Signature.KeyExpired',
};

test('first attempt -> re-signing -> answered: the re-sign is logged with the second outcome', (t) => {
  const resigning = keyRefused(FIRST_ATTEMPT, refused, pending);
  t.is(resigning.name, 're-signing');
  const { state, line } = settle(resigning, 'answer-chosen', { retryStatus: 200, retryUpstreamCode: null });
  t.is(state.name, 'answered');
  t.deepEqual(line, { ...pending, retryStatus: 200, retryUpstreamCode: null });
  t.is(settle(state, 'ended', { retryStatus: null, retryUpstreamCode: null }).line, null);
});

test('an exchange that ends while the re-signed attempt is out logs it with no answer', (t) => {
  const { line } = settle(keyRefused(FIRST_ATTEMPT, refused, pending), 'ended', {
    retryStatus: null,
    retryUpstreamCode: null,
  });
  t.deepEqual(line, { ...pending, retryStatus: null, retryUpstreamCode: null });
});

test('a first attempt answered has no re-sign to log, and a request is re-signed at most once', (t) => {
  const { state, line } = settle(FIRST_ATTEMPT, 'answer-chosen', { retryStatus: null, retryUpstreamCode: null });
  t.is(line, null);
  t.throws(() => keyRefused(state, refused, pending));
  t.throws(() => keyRefused(keyRefused(FIRST_ATTEMPT, refused, pending), refused, pending));
  t.deepEqual(RESIGN_TRANSITIONS['key-refused'].from, ['first-attempt']);
});
