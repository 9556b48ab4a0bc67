// Which request lines SFD_REQUEST_LOG=failed keeps: every outcome an operator has to look at, and
// nothing else.
import test from 'ava';
import { newRecord, requestFailed, requestLogFilter, type RequestRecord } from '../../../src/proxy/request-record.js';

function finished(fields: Partial<RequestRecord>): RequestRecord {
  return Object.assign(newRecord('GET', '/v1.1/customer', undefined), { status: 200, completed: true }, fields);
}

test('a complete 2xx or 3xx answer is not a failure', (t) => {
  t.false(requestFailed(finished({})));
  t.false(requestFailed(finished({ status: 304 })));
});

test('no answer, an error status, a cut-off answer, a sidecar error and a re-signed request are failures', (t) => {
  t.true(requestFailed(finished({ status: 0, completed: false })), 'the caller went away before any answer');
  t.true(requestFailed(finished({ status: 401 })));
  t.true(requestFailed(finished({ status: 400 })));
  t.true(requestFailed(finished({ status: 502, errorCode: 'Sidecar.UpstreamUnreachable' })));
  t.true(requestFailed(finished({ completed: false })), 'a 200 whose body was cut off');
  t.true(requestFailed(finished({ resigned: true })), 'the first key was refused');
});

test('all keeps every line and off none', (t) => {
  const records = [finished({}), finished({ status: 500 })];
  t.deepEqual(records.map(requestLogFilter('all')), [true, true]);
  t.deepEqual(records.map(requestLogFilter('off')), [false, false]);
  t.deepEqual(records.map(requestLogFilter('failed')), [false, true]);
});
