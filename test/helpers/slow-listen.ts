// Preloaded (`--import`) into a real sidecar process by a test: every listener opens half a second
// late, and the first one asked for says so on stderr ("slow-listen: ..."). The process is then still starting, its
// command already running, for long enough that a test can act in that time.
import { writeSync } from 'node:fs';
import net from 'node:net';

// Called below with the server as `this`, as Node calls it.
// eslint-disable-next-line @typescript-eslint/unbound-method
const listen = net.Server.prototype.listen;
let told = false;
net.Server.prototype.listen = function (this: net.Server, ...args: unknown[]): net.Server {
  if (!told) {
    told = true;
    writeSync(2, 'slow-listen: the first listener opens in 500 ms\n');
  }
  setTimeout(() => listen.apply(this, args as Parameters<typeof listen>), 500);
  return this;
} as typeof listen;
