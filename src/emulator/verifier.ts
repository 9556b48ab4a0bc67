// The emulator's own signature verification, written from the protocol's text without using the
// sidecar's signing code: two independent implementations that agree are the point.
// It reads the request as it arrived on the wire: raw header lines, raw request target, raw body.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { GATEWAY_ERRORS, type GatewayError } from './gateway-errors.js';

export type Scheme = '1' | '2';
export type Shape = 'spec' | 'no-extra-lf' | 'no-keyid' | 'no-keyid-no-extra-lf';
export type Placement = 'body' | 'uri';

/** The one signature form this emulated gateway accepts. */
export interface AcceptedForm {
  scheme: Scheme;
  shape: Shape;
  placement: Placement;
}

export interface EmulatorKey {
  readonly secret: Buffer;
  /** The customer that owns the key; null for a key bound to no customer. */
  readonly customerId: number | null;
}

export interface WireRequest {
  readonly method: string;
  readonly target: string;
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
}

export type Verdict =
  | { ok: true; accessKeyId: string; key: EmulatorKey; nonce: string; signedAtMs: number }
  | { ok: false; error: GatewayError };

/**
 * Templates of the string to sign, straight from the text: M method, U uri line, D date, N nonce,
 * K access key id, H canonical header lines (each ending in LF), B the body position.
 */
const TEMPLATES: Record<'1' | Shape, string> = {
  '1': 'M\nU\nD\nN\nK\nB',
  spec: 'M\nU\nH\nK\nB',
  'no-extra-lf': 'M\nU\nHK\nB',
  'no-keyid': 'M\nU\nH\nB',
  'no-keyid-no-extra-lf': 'M\nU\nHB',
};

const HOUR_MS = 3_600_000;

export function verifyRequest(
  request: WireRequest,
  form: AcceptedForm,
  keys: ReadonlyMap<string, EmulatorKey>,
  nowMs: number,
): Verdict {
  const headers = groupHeaders(request.rawHeaders);
  const authorization = single(headers, 'authorization');
  const auth = authorization ? /^HMAC-SHA256 ([^\s:]+):([0-9a-f]{64})$/.exec(authorization) : null;
  if (!auth) return { ok: false, error: GATEWAY_ERRORS.authorizationFormat };
  const accessKeyId = auth[1]!;
  const key = keys.get(accessKeyId);
  if (!key) return { ok: false, error: GATEWAY_ERRORS.accessKeyId };

  const versionValues = headers.get('x-sfd-signature-version');
  let scheme: Scheme;
  if (versionValues === undefined) scheme = '1';
  else if (versionValues.length === 1 && versionValues[0] === '2') scheme = '2';
  else return { ok: false, error: GATEWAY_ERRORS.signatureVersion };

  const date = single(headers, 'x-sfd-date');
  const dateMs = date === undefined ? Number.NaN : parseSfdDate(date);
  if (Number.isNaN(dateMs)) return { ok: false, error: GATEWAY_ERRORS.timestamp };
  if (Math.abs(nowMs - dateMs) >= HOUR_MS) return { ok: false, error: GATEWAY_ERRORS.expired };

  const nonce = single(headers, 'x-sfd-nonce');
  if (nonce === undefined || !/^[1-9]\d{4,17}$/.test(nonce)) return { ok: false, error: GATEWAY_ERRORS.nonce };

  // A gateway that accepts one form: any other scheme does not match.
  if (scheme !== form.scheme) return { ok: false, error: GATEWAY_ERRORS.signatureNotMatch };

  const expected = expectedSignature(request, headers, form, { accessKeyId, date: date!, nonce }, key.secret);
  const given = Buffer.from(auth[2]!, 'hex');
  if (!timingSafeEqual(expected, given)) return { ok: false, error: GATEWAY_ERRORS.signatureNotMatch };
  return { ok: true, accessKeyId, key, nonce, signedAtMs: dateMs };
}

function expectedSignature(
  request: WireRequest,
  headers: Map<string, string[]>,
  form: AcceptedForm,
  values: { accessKeyId: string; date: string; nonce: string },
  secret: Buffer,
): Buffer {
  const questionMark = request.target.indexOf('?');
  const pathOnly = questionMark < 0 ? request.target : request.target.substring(0, questionMark);
  const query = questionMark < 0 ? '' : request.target.substring(questionMark + 1);
  const method = request.method.toUpperCase();
  const queryGoesInBody = form.placement === 'body' && (method === 'GET' || method === 'HEAD');
  const uriLine = queryGoesInBody ? pathOnly : request.target;
  const bodyPosition = queryGoesInBody && query.length > 0 ? Buffer.from(query, 'latin1') : request.body;

  let canonical = '';
  if (form.scheme === '2') {
    const names = [...headers.keys()].filter((n) => n === 'host' || n.indexOf('x-sfd-') === 0).sort();
    canonical = names.map((n) => `${n}:${headers.get(n)!.join(',')}\n`).join('');
  }
  const template = TEMPLATES[form.scheme === '1' ? '1' : form.shape];
  const substitutions: Record<string, string> = {
    M: method,
    U: uriLine,
    D: values.date,
    N: values.nonce,
    K: values.accessKeyId,
    H: canonical,
  };
  const [before] = template.split('B');
  const text = before!.replace(/[MUDNKH]/g, (letter) => substitutions[letter]!);
  return createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(text, 'latin1'), bodyPosition]))
    .digest();
}

/** Header lines grouped by lowercase trimmed name, values trimmed, in arrival order. */
function groupHeaders(rawHeaders: readonly string[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.trim().toLowerCase();
    const list = grouped.get(name) ?? [];
    list.push(rawHeaders[i + 1]!.trim());
    grouped.set(name, list);
  }
  return grouped;
}

function single(headers: Map<string, string[]>, name: string): string | undefined {
  const values = headers.get(name);
  return values && values.length === 1 ? values[0] : undefined;
}

/** yyyyMMdd'T'HHmmss'Z' to epoch ms; NaN when malformed or not a real instant. */
export function parseSfdDate(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!m) return Number.NaN;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  const valid =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === h &&
    back.getUTCMinutes() === mi &&
    back.getUTCSeconds() === s;
  return valid ? ms : Number.NaN;
}
