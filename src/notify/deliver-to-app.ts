// Hands a validated notification to the application (SFD_NOTIFY_FORWARD_URL): the original body and
// headers plus `Idempotency-Key: <id>`. Only a 2xx answer within the timeout counts as delivered.
import http from 'node:http';
import https from 'node:https';
import { connectionOptions, isRequestHopByHop } from '../http/hop-by-hop.js';
import { onUnaskedUpgrade } from '../outbound/unasked-upgrade.js';

export type DeliveryResult =
  { readonly delivered: true; readonly status: number } | { readonly delivered: false; readonly reason: string };

/** Set by the relay itself for the application; the caller's are dropped. */
const REPLACED = new Set(['host', 'content-length', 'idempotency-key']);

export interface AppDelivery {
  deliver(body: Buffer, rawHeaders: readonly string[], id: string): Promise<DeliveryResult>;
  close(): void;
}

export function createAppDelivery(forwardUrl: URL, timeoutMs: number): AppDelivery {
  const client = forwardUrl.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 16 });
  return {
    deliver(body, rawHeaders, id) {
      // As a proxy must: hop-by-hop headers and those the Connection header names stay behind (a
      // Trailer header, for one, makes Node refuse to send a request with a Content-Length).
      const named = connectionOptions(rawHeaders);
      const headers: string[] = [];
      for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
        const name = rawHeaders[i]!;
        const lower = name.toLowerCase();
        if (!REPLACED.has(lower) && !isRequestHopByHop(lower) && !named.has(lower))
          headers.push(name, rawHeaders[i + 1]!);
      }
      headers.push('Host', forwardUrl.host, 'Content-Length', String(body.length), 'Idempotency-Key', id);
      return new Promise((resolve) => {
        // The first result counts (a promise settles once); the deadline is no longer needed after it.
        const settle = (result: DeliveryResult): void => {
          clearTimeout(deadline);
          resolve(result);
        };
        let request: http.ClientRequest;
        try {
          request = client.request(forwardUrl, { method: 'POST', headers, agent }, onResponse);
        } catch (error) {
          // Node refuses a header it cannot send (the relay checks the id; this is the backstop).
          resolve({ delivered: false, reason: (error as NodeJS.ErrnoException).code ?? 'request refused' });
          return;
        }
        function onResponse(response: http.IncomingMessage): void {
          response.resume();
          const status = response.statusCode ?? 0;
          response.on('end', () =>
            settle(
              status >= 200 && status < 300
                ? { delivered: true, status }
                : { delivered: false, reason: `the app answered ${status}` },
            ),
          );
          response.on('error', () => settle({ delivered: false, reason: 'the app closed the connection mid-answer' }));
        }
        // One deadline from now, whether the request waits for one of the agent's connections or for the
        // app (a socket timeout would start only once a connection is free, and restart with every byte).
        // Settled here, not through the request's error event, which a request already closed never emits.
        const deadline = setTimeout(() => {
          settle({ delivered: false, reason: `no answer within ${timeoutMs} ms` });
          request.destroy();
        }, timeoutMs);
        onUnaskedUpgrade(request, (status) =>
          settle({ delivered: false, reason: `the app switched protocols (${status})` }),
        );
        request.on('error', (error: NodeJS.ErrnoException) =>
          settle({ delivered: false, reason: error.code ?? error.message }),
        );
        request.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
