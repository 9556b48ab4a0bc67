// Posts one event to a callback URL as the service does (JSON body, X-SFD-Notification-From: LLS):
// used by `sfd-sidecar notify` and by the emulator playing the service's side. node:http rather than
// fetch, which refuses some ports outright (the fetch standard's "bad ports").
import http from 'node:http';
import https from 'node:https';
import { NOTIFICATION_FROM_HEADER, NOTIFICATION_FROM_VALUE } from './notification-header.js';

export interface SendOutcome {
  readonly status: number | null;
  readonly body: string;
  /** Set when no HTTP answer came back. */
  readonly error?: string;
}

export function sendEvent(url: string, event: unknown, timeoutMs = 10_000): Promise<SendOutcome> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const body = JSON.stringify(event);
  return new Promise((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        timeout: timeoutMs,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          [NOTIFICATION_FROM_HEADER]: NOTIFICATION_FROM_VALUE,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text = (text + chunk).slice(0, 4096)));
        response.on('end', () => resolve({ status: response.statusCode ?? null, body: text }));
        response.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: null, body: '', error: error.code ?? error.message }),
        );
      },
    );
    request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ status: null, body: '', error: error.code ?? error.message }),
    );
    request.end(body);
  });
}
