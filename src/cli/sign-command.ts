// `sfd-sidecar sign`: prints what the sidecar would send for one request (string to sign, signature,
// headers) for debugging and for comparing with other implementations. Never prints the secret.
import { ConfigError } from '../config/config-error.js';
import { describeFileProblem } from '../files/regular-file.js';
import { formatSfdDate } from '../signing/format-date.js';
import { createNonceSource, isValidNonce } from '../signing/nonce.js';
import { signRequest, type SignResult } from '../signing/sign-request.js';
import type { HeaderField } from '../signing/types.js';
import type { CliIo } from '../command/cli-io.js';
import { queryReplacesBody } from '../signing/signing-target.js';
import { readerOf, type CommandSettings } from '../command/command-settings.js';
import { formatObject } from '../command/format-object.js';
import { outputFormatOf } from '../command/output-format.js';

type SignOptionValues = Readonly<Record<string, string | boolean | string[] | undefined>>;

/** Node's HTTP stack carries header and target bytes as latin1 strings; CLI text is UTF-8. */
const toByteString = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
const fromByteString = (bytes: string): string => Buffer.from(bytes, 'latin1').toString('utf8');

/** The largest body SFD_MAX_BODY_BYTES allows. */
const SIGN_BODY_MAX_BYTES = 1024 * 1024 * 1024;

const SIGNATURE_HEADERS = new Set(['authorization', 'x-sfd-date', 'x-sfd-nonce', 'x-sfd-signature-version']);

export function signCommand(settings: CommandSettings, options: SignOptionValues, io: CliIo): number {
  const format = outputFormatOf(options);
  const r = readerOf(settings, io);
  const signing = r.signingOptions();
  const key = r.accessKey();
  const problems = r.problems;
  const method = typeof options.method === 'string' ? options.method.toUpperCase() : 'GET';
  if (!/^[A-Z]+$/.test(method))
    problems.push('--method: must be an HTTP method such as GET, POST, PUT, PATCH, DELETE, HEAD');
  const url = typeof options.url === 'string' ? parseTargetUrl(options.url) : null;
  if (!url) problems.push(urlProblem(options.url));
  const date = typeof options.date === 'string' ? options.date : formatSfdDate(io.now());
  if (!/^\d{8}T\d{6}Z$/.test(date))
    problems.push(`--date: must be yyyyMMddTHHmmssZ in UTC, e.g. 20180328T173013Z (got ${JSON.stringify(date)})`);
  const nonce = typeof options.nonce === 'string' ? options.nonce : createNonceSource()();
  if (!isValidNonce(nonce))
    problems.push(`--nonce: must be 5 to 18 digits without a leading zero (got ${JSON.stringify(nonce)})`);
  const notes: string[] = [];
  const extraSfdHeaders = parseHeaders(Array.isArray(options.header) ? options.header : [], problems, notes);
  const body = readBodyOption(options, io, problems);
  if (problems.length > 0 || !key || !url || !body) throw new ConfigError(problems);

  const result = signRequest({
    method,
    path: url.path,
    rawQuery: url.rawQuery,
    host: url.host,
    extraSfdHeaders,
    body,
    key,
    options: signing,
    date,
    nonce,
  });
  if (body.length > 0 && queryReplacesBody(method, url.rawQuery, signing.queryPlacement)) {
    notes.push(
      `the body is not signed: under query placement body, a ${method} signs its query where the body goes. ` +
        'The sidecar signs such a request the same way; send the data in the query, or use POST.',
    );
  }
  for (const note of notes) io.stderr(`note: ${note}\n`);
  if (format === 'json') io.stdout(`${JSON.stringify(jsonView(result))}\n`);
  else io.stdout(format === 'yaml' ? formatObject(jsonView(result), 'yaml') : humanView(result, signing));
  return 0;
}

function jsonView(result: SignResult): { stringToSign: string; signature: string; headers: Record<string, string> } {
  const stringToSign = fromByteString(result.stringToSignPrefix) + result.bodyPosition.toString('utf8');
  return { stringToSign, signature: result.signature, headers: { ...result.headers } };
}

function humanView(
  result: SignResult,
  signing: { signatureVersion: string; v2StringShape: string; queryPlacement: string },
): string {
  const { stringToSign, signature, headers } = jsonView(result);
  const form = signing.signatureVersion === '1' ? 'scheme 1' : `scheme 2, shape ${signing.v2StringShape}`;
  const lines = stringToSign
    .split('\n')
    .map((line, i, all) => (i < all.length - 1 ? `  ${line}\\n` : `  ${line}<end>`));
  return [
    `String to sign (${form}, query placement ${signing.queryPlacement}; \\n marks each line feed, <end> the end):`,
    ...lines,
    ``,
    `Signature: ${signature}`,
    ``,
    `Headers to send:`,
    ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`),
    ``,
  ].join('\n');
}

interface TargetUrl {
  host: string;
  path: string;
  rawQuery: string | null;
}

/** Keeps path and query as written (no normalisation); the host drops a default port. */
function parseTargetUrl(text: string): TargetUrl | null {
  const match = /^(https?):\/\/([^/?#]+)([^?#]*)(?:\?([^#]*))?$/i.exec(text);
  if (!match) return null;
  let host: string;
  try {
    host = new URL(`${match[1]!.toLowerCase()}://${match[2]!}`).host;
  } catch {
    return null;
  }
  return {
    host,
    path: toByteString(match[3] || '/'),
    rawQuery: match[4] === undefined ? null : toByteString(match[4]),
  };
}

/** Why --url cannot be used: missing, relative, or not an http(s) URL. */
function urlProblem(given: unknown): string {
  const example = 'e.g. https://host/v1.1/customer/1';
  if (typeof given !== 'string') return `--url: required, the absolute URL the request goes to, ${example}`;
  if (given.startsWith('/')) {
    return (
      `--url: ${JSON.stringify(given)} is a path; give the absolute URL (the host is part of what is signed), ` +
      `${example}`
    );
  }
  return (
    `--url: must be an absolute http:// or https:// URL with path and query, ${example} (got ` +
    `${JSON.stringify(given)})`
  );
}

function parseHeaders(values: readonly string[], problems: string[], notes: string[]): HeaderField[] {
  const fields: HeaderField[] = [];
  for (const text of values) {
    const colon = text.indexOf(':');
    const name = colon > 0 ? text.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      problems.push(`--header: must be "Name: value" (got ${JSON.stringify(text)})`);
      continue;
    }
    const lower = name.toLowerCase();
    if (SIGNATURE_HEADERS.has(lower)) {
      notes.push(`--header ${name}: left out; the signer sets it`);
      continue;
    }
    if (!lower.startsWith('x-sfd-')) {
      notes.push(`--header ${name}: left out; only X-SFD-* headers are signed, other headers pass unsigned`);
      continue;
    }
    fields.push({ name, value: toByteString(text.slice(colon + 1)) });
  }
  return fields;
}

function readBodyOption(options: SignOptionValues, io: CliIo, problems: string[]): Buffer | null {
  const text = options.body;
  const file = options['body-file'];
  if (typeof text === 'string' && typeof file === 'string') {
    problems.push('--body and --body-file: give only one of them');
    return null;
  }
  if (typeof file === 'string') {
    try {
      return io.readFileBytes(file, SIGN_BODY_MAX_BYTES);
    } catch (error) {
      problems.push(
        `--body-file: must name a readable regular file (${JSON.stringify(file)}: ${describeFileProblem(error)})`,
      );
      return null;
    }
  }
  return Buffer.from(typeof text === 'string' ? text : '', 'utf8');
}
