// The settings in the order help shows them: the few most used first, then the rest by subject. Each
// setting is in exactly one group (a test checks), so a new setting must be placed here.
import type { SettingKey } from './all-settings.js';

export interface SettingGroup {
  readonly title: string;
  readonly keys: readonly SettingKey[];
}

export const SETTING_GROUPS: readonly SettingGroup[] = [
  {
    title: 'Most used',
    keys: [
      'upstreamUrl',
      'keystoreFile',
      'accessKeyId',
      'accessKeySecretFile',
      'profile',
      'listen',
      'adminListen',
      'logLevel',
      'image',
      'keystoreSecret',
      'injectorListen',
      'injectorTlsSecret',
    ],
  },
  {
    title: 'Keys and profiles',
    keys: [
      'accessKeySecret',
      'profileHeader',
      'allowedProfiles',
      'operations',
      'keystoreReloadIntervalMs',
      'keystoreDebounceMs',
      'keyExpiryWarningDays',
    ],
  },
  { title: 'Signature form', keys: ['signatureVersion', 'v2StringShape', 'queryPlacement'] },
  {
    title: 'The gateway',
    keys: [
      'upstreamTimeoutMs',
      'upstreamCaFile',
      'upstreamProxy',
      'upstreamNoProxy',
      'upstreamMaxSockets',
      'upstreamRetries',
      'retryMethods',
    ],
  },
  {
    title: 'Callers and limits',
    keys: [
      'maxBodyBytes',
      'maxBufferedBodyBytes',
      'maxHeaderBytes',
      'maxConnections',
      'adminMaxConnections',
      'maxInflight',
      'clientHeadersTimeoutMs',
      'clientRequestTimeoutMs',
      'clientKeepAliveTimeoutMs',
      'clientMinBodyBytesPerSecond',
    ],
  },
  { title: 'Logs and shutdown', keys: ['requestLog', 'shutdownDelayMs', 'shutdownTimeoutMs', 'envFile'] },
  {
    title: 'Notification relay',
    keys: [
      'notifyListen',
      'notifyPath',
      'notifyForwardUrl',
      'notifyToken',
      'notifyAllowedCidrs',
      'notifyRequireHeader',
      'notifyMaxBodyBytes',
      'notifyMaxInflight',
      'notifyMaxConnections',
      'notifyTimeoutMs',
      'notifyDeadLetterDir',
      'notifyDeadLetterMaxBytes',
    ],
  },
  {
    title: 'The injected sidecar',
    keys: [
      'policyFile',
      'keystoreSecretKey',
      'keystoreLayout',
      'sidecarMode',
      'sidecarMinVersion',
      'imagePullPolicy',
      'sidecarCpuRequest',
      'sidecarMemoryRequest',
      'sidecarCpuLimit',
      'sidecarMemoryLimit',
      'sidecarUser',
    ],
  },
  {
    title: "The injector's certificate",
    keys: ['tlsCertFile', 'tlsKeyFile', 'injectorWebhook', 'injectorService', 'injectorApiCredentials'],
  },
];
