// Answers stream through the sidecar: a caller that
// stops reading holds the upstream back instead of the sidecar taking the whole answer into memory,
// and every byte still arrives in order once the caller reads again.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { startTestSidecar, toUpstream } from '../helpers/stack.js';
import { sleep } from '../helpers/time.js';

const CHUNK = 64 * 1024;
const CHUNKS = 1024; // 64 MiB in all
const TOTAL = CHUNK * CHUNKS;

/** Chunk i: the byte i % 251 repeated, so that order and completeness show in the hash. */
const chunkAt = (index: number): Buffer => Buffer.alloc(CHUNK, index % 251);

test(
  'a caller that stops reading holds the upstream ' + 'back, and the whole answer arrives when it reads ' + 'again',
  async (t) => {
    let handedOver = 0;
    const upstream = http.createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': TOTAL });
      let index = 0;
      const sendMore = (): void => {
        while (index < CHUNKS) {
          const accepted = response.write(chunkAt(index));
          index += 1;
          handedOver += CHUNK;
          if (!accepted) return void response.once('drain', sendMore);
        }
        response.end();
      };
      sendMore();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    t.teardown(() => {
      upstream.closeAllConnections();
      upstream.close();
    });
    const { proxyUrl } = await startTestSidecar(t, {
      defaultUpstream: toUpstream(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`),
    });

    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${proxyUrl}/v1.1/download`, { agent: false }, resolve).on('error', reject);
    });
    response.pause();
    // A fixed pause: what is checked is that nothing more happens while the caller reads nothing (the
    // upstream stops being able to hand bytes over), and an absence has no event to wait on.
    await sleep(700);
    const handedOverWhilePaused = handedOver;
    t.log(
      `handed over while the caller read nothing: ${(handedOverWhilePaused / 2 ** 20).toFixed(1)} MiB of ` +
        `${TOTAL / 2 ** 20}`,
    );
    // Socket buffers on both hops hold a few MiB at most; a sidecar that read on regardless would let
    // the upstream hand over all 64 MiB.
    t.true(
      handedOverWhilePaused < TOTAL / 2,
      `the upstream handed over ${handedOverWhilePaused} of ${TOTAL} bytes while the caller read nothing`,
    );

    const received = createHash('sha256');
    let length = 0;
    response.on('data', (chunk: Buffer) => {
      received.update(chunk);
      length += chunk.length;
    });
    const ended = new Promise((resolve) => response.on('end', resolve));
    response.resume();
    await ended;
    const expected = createHash('sha256');
    for (let index = 0; index < CHUNKS; index += 1) expected.update(chunkAt(index));
    t.is(response.statusCode, 200);
    t.is(length, TOTAL);
    t.is(received.digest('hex'), expected.digest('hex'));
  },
);
