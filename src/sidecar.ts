// Composition: builds the signing and admin listeners from injected parts and starts them.
// Nothing here reads the environment or handles signals; main.ts does.
import type { Profile } from './keys/key-store.js';
import { operationLimit, type OperationLimit } from './operations/operation-limit.js';
import type { ProfileNarrowing } from './operations/operations-setting.js';
import type { AddressInfo } from 'node:net';
import type { Readiness } from './admin/create-admin-app.js';
import { createAdminServer } from './admin/create-admin-server.js';
import type { RequestLogMode } from './config/settings.js';
import type { EgressProxy } from './config/egress-proxy.js';
import { describeUrl } from './config/describe-url.js';
import { proxyFor } from './outbound/egress-route.js';
import { DEFAULT_LIMITS, type Limits } from './config/limits-config.js';
import type { ListenAddress, UpstreamTarget } from './config/parsers.js';
import { SIDECAR_ERRORS } from './errors.js';
import type { KeyRing } from './keys/key-ring.js';
import { createProfileResolver, resolveProfileByName, signableProfiles } from './keys/profile-resolver.js';
import { currentKey } from './keys/select-key.js';
import type { Logger, LogValue } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import { observeConnections } from './server/connection-observer.js';
import { createProxyObserver } from './observability/proxy-observer.js';
import { createProxyApp, SIGNING_LISTENER_METHODS, signingBypass } from './proxy/create-proxy-app.js';
import { createForwarderPool, type ForwarderPool } from './proxy/forwarder-pool.js';
import { createBodyBudget } from './http/body-budget.js';
import { createProxyHandler } from './proxy/handle-proxy-request.js';
import { createRequestSigner } from './proxy/request-signer.js';
import { errorAnswer, sendErrorAnswer } from './http/error-answer.js';
import { callerLimitOptions } from './server/caller-limits.js';
import { catalogRefusalAnswer } from './server/catalog-refusal-answer.js';
import { createHttpServer } from './server/create-http-server.js';
import { closeGracefully, formatAddress, listen } from './server/listen.js';
import type { NonceSource } from './signing/nonce.js';
import type { SigningOptions } from './signing/types.js';
import { VERSION } from './version.js';
import { SETTINGS } from './config/settings.js';

export interface SidecarOptions {
  /** SFD_UPSTREAM_URL; null when every profile names its own. */
  readonly defaultUpstream: UpstreamTarget | null;
  readonly listen: ListenAddress;
  readonly adminListen: ListenAddress;
  readonly signing: SigningOptions;
  readonly maxBodyBytes: number;
  readonly upstreamTimeoutMs: number;
  readonly upstreamCa: string | null;
  /** SFD_UPSTREAM_PROXY with its no-proxy list; null or omitted when upstreams are reached directly. */
  readonly egressProxy?: EgressProxy | null;
  readonly ring: KeyRing;
  readonly defaultProfile: string;
  /** SFD_PROFILE_HEADER, or null when callers may not choose a profile. */
  readonly profileHeader: string | null;
  readonly allowedProfiles: ReadonlySet<string>;
  /** SFD_OPERATIONS: how each profile's operations are narrowed within the key store's; null or omitted: not. */
  readonly operations?: ProfileNarrowing | null;
  readonly logger: Logger;
  /** Which requests get their log line (SFD_REQUEST_LOG); every one when omitted. */
  readonly requestLog?: RequestLogMode;
  /** The app instance's metrics; key store reloads are counted from the moment it is given. */
  readonly metrics: Metrics;
  readonly now: () => number;
  readonly nextNonce: NonceSource;
  /** Resource limits and retries; the defaults when omitted. */
  readonly limits?: Limits;
}

export interface RunningSidecar {
  readonly proxyAddress: AddressInfo;
  readonly adminAddress: AddressInfo;
  readonly forwarders: ForwarderPool;
  readiness(): Readiness;
  /** Marks the sidecar as shutting down (not ready) while it goes on serving, until `close`. */
  announceShutdown(): void;
  /** Stops accepting, lets in-flight requests finish for up to `drainMs`, then closes everything. */
  close(drainMs: number): Promise<void>;
}

export async function startSidecar(options: SidecarOptions): Promise<RunningSidecar> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const forwarders = await createForwarders(options, limits);
  const profiles = profileSourceOf(options);
  const proxyServer = createSigningServer(options, limits, forwarders, profiles);
  const state = { proxyBound: false, shuttingDown: false };
  const readiness = readinessOf(options, state);
  const signable = signableProfiles(profiles);
  options.metrics.observeKeys({
    keys: () => keyStates(options, signable),
    lastSuccessMs: () => options.ring.status().lastSuccessAt,
    ready: () => readiness().ready,
  });
  const adminServer = createAdminServer({
    readiness,
    metrics: options.metrics,
    logger: options.logger,
    limits,
    now: options.now,
  });

  const adminAddress = await listen(adminServer, options.adminListen, SETTINGS.adminListen.env);
  let proxyAddress: AddressInfo;
  try {
    proxyAddress = await listen(proxyServer, options.listen, SETTINGS.listen.env);
  } catch (error) {
    await closeGracefully(adminServer, 0);
    forwarders.close();
    throw error;
  }
  state.proxyBound = true;
  logListening(options, proxyAddress, adminAddress);

  return {
    proxyAddress,
    adminAddress,
    forwarders,
    readiness,
    announceShutdown() {
      state.shuttingDown = true;
    },
    async close(drainMs) {
      state.proxyBound = false;
      await closeGracefully(proxyServer, drainMs);
      await closeGracefully(adminServer, 0);
      forwarders.close();
    },
  };
}

/** The upstream connection pools, counted in the metrics. */
async function createForwarders(options: SidecarOptions, limits: Limits): Promise<ForwarderPool> {
  // https-proxy-agent (with debug) is loaded only when an egress proxy is configured.
  const tunnelAgent = options.egressProxy ? await import('./outbound/tunnel-agent.js') : null;
  const forwarders = createForwarderPool({
    timeoutMs: options.upstreamTimeoutMs,
    ca: options.upstreamCa,
    maxSockets: limits.upstreamMaxSockets,
    egressProxy: options.egressProxy ?? null,
    ...(tunnelAgent ? { createTunnelAgent: tunnelAgent.createTunnelAgent } : {}),
  });
  options.metrics.observeUpstreamConnections(() => forwarders.connections());
  return forwarders;
}

/** Where a request's profile comes from: the key ring, the default, the caller's header and the allowed set. */
function profileSourceOf(options: SidecarOptions) {
  return {
    ring: options.ring,
    defaultProfile: options.defaultProfile,
    header: options.profileHeader?.toLowerCase() ?? null,
    allowed: options.allowedProfiles,
    defaultUpstream: options.defaultUpstream,
    signing: options.signing,
  };
}

/** The signing listener's server: the proxy handler behind the caller limits and the parser's refusals. */
function createSigningServer(
  options: SidecarOptions,
  limits: Limits,
  forwarders: ForwarderPool,
  profiles: ReturnType<typeof profileSourceOf>,
) {
  const observer = createProxyObserver(options.metrics, options.now);
  const bodyBudget = createBodyBudget(limits.maxBufferedBodyBytes);
  options.metrics.observeBufferedBodyBytes(() => bodyBudget.inUse());
  const handler = createProxyHandler({
    resolveProfile: createProfileResolver(profiles),
    profileHeader: profiles.header,
    maxBodyBytes: options.maxBodyBytes,
    bodyBudget,
    sign: createRequestSigner({ now: options.now, nextNonce: options.nextNonce }),
    forwarders,
    logger: options.logger,
    now: options.now,
    observer,
    limits,
    requestLog: options.requestLog,
    operationLimits: operationLimitsOf(options.operations ?? null),
  });
  return createHttpServer(createProxyApp(handler), {
    onUnparsable: unparsableAnswer,
    bypass: signingBypass(handler, (outgoing) => sendErrorAnswer(outgoing, unparsableAnswer())),
    // Slow or oversized request heads are refused by Node's parser (408 after the timeouts, 431 beyond
    // the size), answered with the catalog's error, logged and counted.
    onParserRefusal: catalogRefusalAnswer({
      logger: options.logger,
      listener: 'signing',
      count: (code) => observer.sidecarError(code),
      allow: SIGNING_LISTENER_METHODS,
    }),
    serverOptions: callerLimitOptions(limits),
    continueOnRead: true,
    connections: observeConnections({
      metrics: options.metrics,
      logger: options.logger,
      now: options.now,
      listener: 'signing',
      setting: SETTINGS.maxConnections.env,
      maxConnections: limits.maxConnections,
    }),
  });
}

/** /readyz: ready unless shutting down, the signing listener unbound, or the default profile unusable. */
function readinessOf(
  options: SidecarOptions,
  state: { readonly proxyBound: boolean; readonly shuttingDown: boolean },
): () => Readiness {
  return () => {
    const reasons: string[] = [];
    if (state.shuttingDown) reasons.push('shutting down');
    if (!state.proxyBound) reasons.push('the signing listener is not bound');
    reasons.push(...defaultProfileProblems(options));
    const status = options.ring.status();
    const keystore = {
      lastSuccessAt: status.lastSuccessAt === null ? null : new Date(status.lastSuccessAt).toISOString(),
      ...(status.lastError
        ? { lastError: { at: new Date(status.lastError.at).toISOString(), problems: status.lastError.problems } }
        : {}),
    };
    return { ready: reasons.length === 0, reasons, keystore };
  };
}

function logListening(options: SidecarOptions, proxyAddress: AddressInfo, adminAddress: AddressInfo): void {
  options.logger.info('listening', {
    version: VERSION,
    signing: formatAddress(proxyAddress),
    admin: formatAddress(adminAddress),
    upstream: options.defaultUpstream?.origin ?? null,
    profile: options.defaultProfile,
    ...egressProxyFields(options),
  });
  if (options.egressProxy?.unreadNoProxy.length) {
    options.logger.warn(
      'skipped entries of NO_PROXY that are not host names, addresses or CIDR blocks; set ' +
        `${SETTINGS.upstreamNoProxy.env} to replace it`,
      {
        entries: options.egressProxy.unreadNoProxy.join(','),
      },
    );
  }
}

/** Whether upstreams go through the egress proxy, and which (without its credentials). */
function egressProxyFields({ egressProxy, defaultUpstream }: SidecarOptions): Record<string, LogValue> {
  if (!egressProxy) return {};
  return {
    egressProxy: describeUrl(egressProxy.url),
    egressProxyFrom: egressProxy.source,
    ...(defaultUpstream ? { upstreamThroughProxy: proxyFor(egressProxy, defaultUpstream) !== null } : {}),
  };
}

function defaultProfileProblems(options: SidecarOptions): string[] {
  const name = options.defaultProfile;
  const resolution = resolveProfileByName(options, name);
  if (!resolution.ok) return [resolution.cause ?? `profile "${name}" cannot sign`];
  return currentKey(resolution.resolved.profile, options.now()) ? [] : [`profile "${name}" has no key valid now`];
}

/** The keys of the profiles this sidecar signs with; the store's other profiles are other applications'. */
function keyStates(
  options: SidecarOptions,
  signable: ReadonlySet<string>,
): { profile: string; accessKeyId: string; notAfterMs: number | null; current: boolean }[] {
  const now = options.now();
  const store = options.ring.store();
  return [...signable].flatMap((name) => {
    const profile = store?.profiles.get(name);
    if (!profile) return [];
    const current = currentKey(profile, now)?.accessKeyId;
    return profile.keys.map((stored) => ({
      profile: profile.name,
      accessKeyId: stored.key.accessKeyId,
      notAfterMs: stored.notAfter,
      current: stored.key.accessKeyId === current,
    }));
  });
}

function unparsableAnswer(): ReturnType<typeof errorAnswer> {
  return errorAnswer(SIDECAR_ERRORS.BadRequest);
}

/**
 * The limits on a profile's operations, the key store's first: under a narrowing, a profile it does not
 * name signs nothing, since the injection names every profile it gives a pod.
 */
function operationLimitsOf(narrowing: ProfileNarrowing | null): (profile: Profile) => (OperationLimit | null)[] {
  if (narrowing === null) return (profile) => [profile.operations];
  const nothing = operationLimit([]);
  return (profile) => [profile.operations, narrowing.has(profile.name) ? narrowing.get(profile.name)! : nothing];
}
