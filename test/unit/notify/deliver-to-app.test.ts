// The delivery to the application settles, never throws: a notification Node cannot send (an id that
// is not a valid header value) is reported as not delivered rather than thrown out of the relay.
import test from 'ava';
import { createAppDelivery } from '../../../src/notify/deliver-to-app.js';

test('an id Node refuses as a header value is reported as not delivered', async (t) => {
  const delivery = createAppDelivery(new URL('http://127.0.0.1:9/hooks/sfd'), 1000);
  t.teardown(() => delivery.close());
  const result = await delivery.deliver(
    Buffer.from('{}'),
    ['Content-Type', 'application/json'],
    'evt\r\nX-Injected: 1',
  );
  t.deepEqual(result, { delivered: false, reason: 'ERR_INVALID_CHAR' });
});
