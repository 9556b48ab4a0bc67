// The connection bound's queues: connections come out in the order they joined, leave from any place,
// and joining one queue takes a connection out of the other.
import { Socket } from 'node:net';
import test from 'ava';
import {
  ConnectionQueue,
  heldConnection,
  type Caller,
  type HeldConnection,
} from '../../src/server/connection-queue.js';

function drain(queue: ConnectionQueue): number[] {
  const order: number[] = [];
  for (let first = queue.first(); first; first = queue.first()) {
    order.push(first.cameAt);
    queue.remove(first);
  }
  return order;
}

const caller = (): Caller => ({
  address: '10.0.0.1',
  held: 0,
  idle: new ConnectionQueue(),
  silent: new ConnectionQueue(),
});

const connections = (count: number): HeldConnection[] =>
  Array.from({ length: count }, (_, i) => heldConnection(new Socket(), caller(), i));

test('connections come out in the order they joined, whichever ones left in between', (t) => {
  const queue = new ConnectionQueue();
  const all = connections(6);
  for (const connection of all) queue.push(connection);
  queue.remove(all[0]!); // the first
  queue.remove(all[3]!); // one in the middle
  queue.remove(all[5]!); // the last
  queue.push(all[0]!); // joins again, now last
  t.deepEqual(drain(queue), [1, 2, 4, 0]);
  t.is(queue.first(), null);
});

test('joining a queue takes a connection out of the other; leaving one it is not in changes nothing', (t) => {
  const silent = new ConnectionQueue();
  const idle = new ConnectionQueue();
  const [a, b, c] = connections(3) as [HeldConnection, HeldConnection, HeldConnection];
  silent.push(a);
  silent.push(b);
  silent.push(c);
  idle.push(b);
  idle.remove(a);
  t.is(b.queue, idle);
  t.deepEqual(drain(silent), [0, 2]);
  t.deepEqual(drain(idle), [1]);
  t.true([a, b, c].every((connection) => connection.queue === null && !connection.prev && !connection.next));
});
