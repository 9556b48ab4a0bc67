// `sfd-sidecar doctor`: with the configuration `serve` would use, tells an operator why signing fails
// and which signature form the gateway accepts. Every finding has a verdict and a fix.
import { ConfigError } from '../config/config-error.js';
import { proxyFor } from '../outbound/egress-route.js';
import { loadConfig, type Config, type LoadConfigOptions, type SettingValues } from '../config/load-config.js';
import { currentKey } from '../keys/select-key.js';
import { createNonceSource } from '../signing/nonce.js';
import type { SigningOptions } from '../signing/types.js';
import { fail, ok, warn, type CheckResult } from './check-result.js';
import { keyChecks, loadStore, type ReadFileAsync } from './key-store-checks.js';
import { probeForms } from './probe-forms.js';
import { reachUpstream } from './reach-upstream.js';
import { createProber } from './signature-probe.js';
import { SETTINGS } from '../config/settings.js';

export interface DoctorReport {
  readonly ok: boolean;
  readonly checks: readonly CheckResult[];
  /** The settings that make the gateway accept signatures, when the probes found them. */
  readonly recommendation: SigningOptions | null;
}

export interface DoctorDeps extends LoadConfigOptions<object> {
  readonly readFileAsync: ReadFileAsync;
  readonly now: () => number;
  readonly timeoutMs?: number;
  /** Variables that are no setting, unread dotenv lines: shown as a warning. */
  readonly settingWarnings?: readonly string[];
}

export async function runDoctor(values: SettingValues, deps: DoctorDeps): Promise<DoctorReport> {
  const checks: CheckResult[] = [];
  const done = (recommendation: SigningOptions | null = null): DoctorReport => ({
    ok: checks.every((c) => c.verdict !== 'fail'),
    checks,
    recommendation,
  });
  const config = checkedConfiguration(values, deps, checks);
  if (!config) return done();
  const oddities = [...(deps.settingWarnings ?? []), ...config.warnings];

  const store = await loadStore(config, deps.readFileAsync, checks, oddities);
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
        `set ${SETTINGS.profile.env} (or --profile) to one of its profiles`,
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
          `profile "${profile.name}" has no upstreamUrl and ${SETTINGS.upstreamUrl.env} is not set`,
          `set ${SETTINGS.upstreamUrl.env}`,
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
        `if the pod needs a proxy to reach the gateway, set ${SETTINGS.upstreamProxy.env} to an http:// or ` +
          'https:// one',
      ),
    );
  const proxy = proxyFor(config.egressProxy, upstream);
  const reached = await reachUpstream(proxy, upstream, config.upstreamCa, deps.now(), timeoutMs);
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

/** The configuration and its check; null when serve could not sign with it (the check says why). */
function checkedConfiguration(values: SettingValues, deps: DoctorDeps, checks: CheckResult[]): Config | null {
  let config: Config;
  try {
    config = loadConfig(values, deps);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    checks.push(
      fail('configuration', error.problems.join('; '), 'fix the settings named above (docs/configuration.md)'),
    );
    return null;
  }
  if (config.demo) {
    checks.push(
      fail(
        'configuration',
        'nothing is configured: serve would run the demo against the built-in emulator',
        `set ${SETTINGS.upstreamUrl.env} and a key or key store`,
      ),
    );
    return null;
  }
  checks.push(ok('configuration', 'the settings are valid'));
  return config;
}
