// `sfd-sidecar doctor`: with the configuration `serve` would use, tells an operator why signing fails
// and which signature form the gateway accepts. Every finding has a verdict and a fix.
import { ConfigError } from '../config/config-error.js';
import { proxyFor } from '../config/egress-proxy.js';
import { loadConfig, type Config, type LoadConfigDeps, type SettingValues } from '../config/load-config.js';
import type { UpstreamTarget } from '../config/parsers.js';
import { describeFileProblem, FILE_LIMITS } from '../files/regular-file.js';
import { singleKeyStore, type KeyStore, type Profile } from '../keys/key-store.js';
import { parseKeyStore } from '../keys/parse-key-store.js';
import { currentKey, usableKeys } from '../keys/select-key.js';
import { createNonceSource } from '../signing/nonce.js';
import type { AccessKey, SigningOptions } from '../signing/types.js';
import { fail, ok, warn, type CheckResult } from './check-result.js';
import { checkDns, checkTcp, checkTls } from './network-checks.js';
import { openTunnel } from './tunnel-check.js';
import { CANDIDATE_FORMS, createProber, describeForm, type ProbeAnswer, type Prober } from './signature-probe.js';

export interface DoctorReport {
  readonly ok: boolean;
  readonly checks: readonly CheckResult[];
  /** The settings that make the gateway accept signatures, when the probes found them. */
  readonly recommendation: SigningOptions | null;
}

export interface DoctorDeps extends LoadConfigDeps {
  /** Reads a regular file without blocking, at most `maxBytes` of it; throws when it cannot. */
  readonly readFileAsync: (path: string, maxBytes: number) => Promise<string>;
  readonly now: () => number;
  readonly timeoutMs?: number;
  /** Variables that are no setting, unread dotenv lines: shown as a warning. */
  readonly settingWarnings?: readonly string[];
}

const DAY_MS = 86_400_000;
/** Codes the gateway raises before it checks the signature: a probe that gets one proves nothing about the form. */
const BEFORE_SIGNATURE = new Set([
  'AuthorizationFormat.Invalid',
  'AccessKeyId.Invalid',
  'AccessCredential.Invalid',
  'Timestamp.Invalid',
  'Signature.Expired',
  'Nonce.Invalid',
  'Signature.Version.Invalid',
]);

export async function runDoctor(values: SettingValues, deps: DoctorDeps): Promise<DoctorReport> {
  const checks: CheckResult[] = [];
  const done = (recommendation: SigningOptions | null = null): DoctorReport => ({
    ok: checks.every((c) => c.verdict !== 'fail'),
    checks,
    recommendation,
  });
  let config: Config;
  try {
    config = loadConfig(values, deps);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    checks.push(
      fail('configuration', error.problems.join('; '), 'fix the settings named above (docs/configuration.md)'),
    );
    return done();
  }
  const oddities = [...(deps.settingWarnings ?? []), ...config.warnings];
  if (config.demo) {
    checks.push(
      fail(
        'configuration',
        'nothing is configured: serve would run the demo against the built-in emulator',
        'set SFD_UPSTREAM_URL and a key or key store',
      ),
    );
    return done();
  }
  checks.push(ok('configuration', 'the settings are valid'));

  const store = await loadStore(config, deps, checks, oddities);
  if (oddities.length > 0)
    checks.push(
      warn('settings', oddities.join('; '), 'correct the names and values above; each is used as it is, or ignored'),
    );
  const profile = store?.profiles.get(config.profile);
  if (!store) return done();
  checks.push(...keyChecks(store, deps.now(), config.keyExpiryWarningDays));
  if (!profile) {
    checks.push(
      fail(
        'profile',
        `profile "${config.profile}" is not in the key store`,
        'set SFD_PROFILE (or --profile) to one of its profiles',
      ),
    );
    return done();
  }
  const key = currentKey(profile, deps.now());
  const upstream = profile.upstream ?? config.upstream;
  if (!key || !upstream) {
    if (!upstream)
      checks.push(
        fail(
          'upstream',
          `profile "${profile.name}" has no upstreamUrl and SFD_UPSTREAM_URL is not set`,
          'set SFD_UPSTREAM_URL',
        ),
      );
    return done();
  }
  const timeoutMs = deps.timeoutMs ?? 5000;
  if (config.egressProxyIgnored)
    checks.push(
      warn(
        'egress proxy',
        config.egressProxyIgnored,
        'if the pod needs a proxy to reach the gateway, set SFD_UPSTREAM_PROXY to an http:// or https:// one',
      ),
    );
  const proxy = proxyFor(config.egressProxy, upstream);
  const reached = proxy
    ? await checkThroughProxy(proxy, upstream, config.upstreamCa, deps.now(), timeoutMs)
    : await checkDirect(upstream, config.upstreamCa, deps.now(), timeoutMs);
  checks.push(...reached);
  if (reached.some((check) => check.verdict === 'fail')) return done();

  const configured: SigningOptions = { ...config.signing, ...profile.signing };
  const prober = createProber({
    upstream,
    key,
    ca: config.upstreamCa,
    proxy,
    now: deps.now,
    nextNonce: createNonceSource(),
    timeoutMs,
  });
  const secretOddity = oddities.find((o) => o.includes('whitespace'));
  const recommendation = await probeForms(prober, configured, upstream, key, checks, secretOddity);
  return done(recommendation);
}

/** DNS, TCP and TLS to the upstream, stopping at the first failure. */
async function checkDirect(
  upstream: UpstreamTarget,
  ca: string | null,
  now: number,
  timeoutMs: number,
): Promise<CheckResult[]> {
  const dns = await checkDns(upstream);
  if (dns.verdict === 'fail') return [dns];
  const tcp = await checkTcp(upstream, timeoutMs);
  if (tcp.verdict === 'fail') return [dns, tcp];
  return [dns, tcp, await checkTls(upstream, ca, now, timeoutMs)];
}

/** The proxy resolves and connects to the upstream: the tunnel, then TLS inside it. */
async function checkThroughProxy(
  proxy: URL,
  upstream: UpstreamTarget,
  ca: string | null,
  now: number,
  timeoutMs: number,
): Promise<CheckResult[]> {
  const tunnel = await openTunnel(proxy, upstream, ca, timeoutMs);
  if (!tunnel.socket) return [tunnel.result];
  try {
    return [tunnel.result, await checkTls(upstream, ca, now, timeoutMs, tunnel.socket)];
  } finally {
    tunnel.socket.destroy();
  }
}

/** @param oddities collects the key store's warnings (a secret with whitespace at its edges) */
async function loadStore(
  config: Config,
  deps: DoctorDeps,
  checks: CheckResult[],
  oddities: string[],
): Promise<KeyStore | null> {
  const source = config.keySource;
  if (source.kind === 'single') return singleKeyStore(config.profile, source.key);
  if (source.kind !== 'keystore') return null;
  let text: string;
  try {
    text = await deps.readFileAsync(source.path, FILE_LIMITS.keyStore);
  } catch (error) {
    checks.push(
      fail(
        'key store',
        `${source.path}: ${describeFileProblem(error)}`,
        'check SFD_KEYSTORE_FILE and the volume mount',
      ),
    );
    return null;
  }
  const parsed = await parseKeyStore(text, source.path, { readFile: deps.readFileAsync });
  oddities.push(...parsed.warnings.map((w) => `${source.path}: ${w}`));
  if (!parsed.ok) {
    checks.push(
      fail('key store', parsed.problems.join('; '), `run sfd-sidecar keys check ${source.path} and fix the file`),
    );
    return null;
  }
  checks.push(ok('key store', `${source.path}: ${parsed.store.profiles.size} profile(s)`));
  return parsed.store;
}

function keyChecks(store: KeyStore, now: number, warningDays: number): CheckResult[] {
  return [...store.profiles.values()].map((profile: Profile) => {
    const current = usableKeys(profile, now)[0];
    const name = `key of profile ${profile.name}`;
    if (!current) return fail(name, 'no key is valid now', 'add a key whose notBefore/notAfter window holds now');
    const id = current.key.accessKeyId;
    if (current.notAfter === null) return ok(name, `${id} is current and does not expire`);
    const days = (current.notAfter - now) / DAY_MS;
    const until = new Date(current.notAfter).toISOString();
    const detail = `${id} is current, valid until ${until} (${days.toFixed(1)} days)`;
    return days <= warningDays
      ? warn(name, detail, 'add its successor with a notBefore before that date (docs/keystore.md, Rotating a key)')
      : ok(name, detail);
  });
}

/**
 * @param secretOddity whitespace at the edges of the secret, the likeliest cause when the gateway refuses every form
 */
async function probeForms(
  prober: Prober,
  configured: SigningOptions,
  upstream: UpstreamTarget,
  key: AccessKey,
  checks: CheckResult[],
  secretOddity: string | undefined,
): Promise<SigningOptions | null> {
  const answers: { form: (typeof CANDIDATE_FORMS)[number]; answer: ProbeAnswer }[] = [];
  for (const form of CANDIDATE_FORMS)
    answers.push({
      form,
      answer: await prober.probe({ ...form, queryPlacement: configured.queryPlacement }, '/v1.1/customer', null),
    });

  const skew = answers.map((a) => a.answer.skewMs).find((s) => s !== null) ?? null;
  checks.push(clockCheck(skew));
  const unreachable = answers.find((a) => a.answer.status === null);
  if (unreachable) {
    checks.push(
      fail(
        'signature form',
        `the probe got no answer (${unreachable.answer.error ?? 'error'})`,
        'see the network checks above',
      ),
    );
    return null;
  }
  const before = answers.filter((a) => a.answer.code !== null && BEFORE_SIGNATURE.has(a.answer.code));
  if (before.length === answers.length) {
    const code = before[0]!.answer.code!;
    checks.push(
      fail(
        'signature form',
        `every probe was refused before the signature was checked: ${before[0]!.answer.status} ${code}`,
        fixFor(code, key.accessKeyId),
      ),
    );
    return null;
  }
  const accepted = answers.filter(
    (a) =>
      !(a.answer.status === 401 && a.answer.code === 'Signature.NotMatch') &&
      !(a.answer.code !== null && BEFORE_SIGNATURE.has(a.answer.code)),
  );
  const summary = answers
    .map((a) => `${describeForm(a.form)}: ${a.answer.status}${a.answer.code ? ` ${a.answer.code}` : ''}`)
    .join('; ');
  if (accepted.length === 0) {
    const fix = secretOddity
      ? `likely the secret itself: ${secretOddity}; remove the whitespace (or the secret does not belong to ` +
        `${key.accessKeyId})`
      : `the secret does not belong to ${key.accessKeyId}, or the gateway uses a form not listed here`;
    checks.push(fail('signature form', `the gateway refused every form (${summary})`, fix));
    return null;
  }
  // A gateway may accept several forms (it picks the scheme from X-SFD-Signature-Version): the
  // configured one, when among them, is kept rather than the first in the list.
  const chosen = accepted.find((a) => sameForm(a.form, configured)) ?? accepted[0]!;
  const form = chosen.form;
  const placement = await probePlacement(prober, form, configured, chosen.answer, upstream);
  const recommendation: SigningOptions = { ...form, queryPlacement: placement.placement };
  checks.push(
    ok('signature form', `accepted: ${accepted.map((a) => describeForm(a.form)).join(', ')} (all probes: ${summary})`),
  );
  checks.push(placement.check);
  const matches = sameForm(recommendation, configured) && configured.queryPlacement === recommendation.queryPlacement;
  const settings =
    `SFD_SIGNATURE_VERSION=${recommendation.signatureVersion}` +
    (recommendation.signatureVersion === '2' ? ` SFD_V2_STRING_SHAPE=${recommendation.v2StringShape}` : '') +
    ` SFD_QUERY_PLACEMENT=${recommendation.queryPlacement}`;
  checks.push(
    matches
      ? ok('settings', `the configured form (${describeForm(configured)}) is accepted`)
      : fail(
          'settings',
          `the configured form (${describeForm(configured)}) is not the one the gateway accepts`,
          `set ${settings}`,
        ),
  );
  return recommendation;
}

/** The same scheme and, for scheme 2, the same shape (scheme 1 has no shapes). */
function sameForm(a: Omit<SigningOptions, 'queryPlacement'>, b: Omit<SigningOptions, 'queryPlacement'>): boolean {
  return (
    a.signatureVersion === b.signatureVersion && (a.signatureVersion === '1' || a.v2StringShape === b.v2StringShape)
  );
}

/** A GET with a query shows where the gateway signs the query: in the body position or the uri line. */
async function probePlacement(
  prober: Prober,
  form: (typeof CANDIDATE_FORMS)[number],
  configured: SigningOptions,
  first: ProbeAnswer,
  upstream: UpstreamTarget,
): Promise<{ placement: SigningOptions['queryPlacement']; check: CheckResult }> {
  let ownerId: unknown;
  try {
    ownerId = (JSON.parse(first.body) as { id?: unknown }).id;
  } catch {
    ownerId = undefined;
  }
  const path = typeof ownerId === 'number' ? `/v1.2/customerChildren/${ownerId}` : '/v1.1/customer';
  const results: { placement: SigningOptions['queryPlacement']; answer: ProbeAnswer }[] = [];
  for (const placement of ['body', 'uri'] as const)
    results.push({
      placement,
      answer: await prober.probe({ ...form, queryPlacement: placement }, path, 'page=1&size=1'),
    });
  const accepted = results.filter(
    (r) => r.answer.status !== null && !(r.answer.status === 401 && r.answer.code === 'Signature.NotMatch'),
  );
  const summary = results
    .map((r) => `${r.placement}: ${r.answer.status}${r.answer.code ? ` ${r.answer.code}` : ''}`)
    .join('; ');
  if (accepted.length === 1)
    return {
      placement: accepted[0]!.placement,
      check: ok(
        'query placement',
        `GET ${upstream.pathPrefix}${path}?page=1&size=1 accepted with ${accepted[0]!.placement} (${summary})`,
      ),
    };
  if (accepted.length === 2)
    return {
      placement: configured.queryPlacement,
      check: ok(
        'query placement',
        `both placements accepted for this read (${summary}); keeping ${configured.queryPlacement}`,
      ),
    };
  return {
    placement: configured.queryPlacement,
    check: warn(
      'query placement',
      `neither placement was accepted for a GET with a query (${summary})`,
      'reads with a query may fail; compare with `sfd-sidecar sign` and a known-good client',
    ),
  };
}

function clockCheck(skewMs: number | null): CheckResult {
  if (skewMs === null)
    return warn(
      'clock',
      'the gateway sent no Date header, so the clock skew is unknown',
      'make sure the node synchronises its clock (NTP)',
    );
  const minutes = Math.abs(skewMs) / 60_000;
  const detail =
    `the gateway's clock is ${skewMs >= 0 ? 'ahead of' : 'behind'} this one by ` +
    `${(Math.abs(skewMs) / 1000).toFixed(1)} s (HTTP Date has 1 s resolution)`;
  if (minutes >= 50)
    return fail(
      'clock',
      `${detail}: the gateway refuses dates an hour away`,
      'fix time synchronisation (NTP) on the node',
    );
  if (minutes >= 5)
    return warn(
      'clock',
      `${detail}: drifting toward the gateway's one-hour limit`,
      'fix time synchronisation (NTP) on the node',
    );
  return ok('clock', detail);
}

function fixFor(code: string, keyId: string): string {
  switch (code) {
    case 'AccessKeyId.Invalid':
    case 'AccessCredential.Invalid':
      return (
        `the gateway does not know ${keyId} (or it is revoked): check SFD_ACCESS_KEY_ID or the key store ` +
        `against the portal`
      );
    case 'Signature.Expired':
    case 'Timestamp.Invalid':
      return "the gateway refuses this machine's date: fix time synchronisation (NTP) on the node";
    default:
      return `the gateway answered ${code}; see docs/troubleshooting.md`;
  }
}
