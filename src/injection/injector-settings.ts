// The injector's own settings: its webhook listener and the certificate it serves with, from files or
// kept by itself in a Secret.
import { defineSettings, type SettingDefinition } from '../config/setting-definition.js';
import { listen, text } from '../config/setting-kinds.js';
import { parseObjectName, parseServiceName, type ListenAddress } from '../config/parsers.js';

export const INJECTOR_SETTINGS = defineSettings({
  injectorListen: {
    env: 'SFD_INJECTOR_LISTEN',
    description: 'the HTTPS listener of the admission webhook (POST /mutate, POST /mutate/namespace)',
    ...listen,
    default: { host: '', port: 8443 },
    commands: ['injector'],
  } satisfies SettingDefinition<ListenAddress>,
  tlsCertFile: {
    env: 'SFD_TLS_CERT_FILE',
    description: "the webhook's certificate (PEM), re-read when it changes; required",
    ...text('a file path'),
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  tlsKeyFile: {
    env: 'SFD_TLS_KEY_FILE',
    description: "the webhook's private key (PEM), re-read when it changes; required",
    ...text('a file path'),
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  injectorTlsSecret: {
    env: 'SFD_INJECTOR_TLS_SECRET',
    description:
      'a Secret in which the injector keeps a CA and a serving certificate of its own, renewed before they ' +
      'expire, and writes the CA bundle into SFD_INJECTOR_WEBHOOK; instead of SFD_TLS_CERT_FILE and ' +
      'SFD_TLS_KEY_FILE',
    parse: parseObjectName,
    allowed: 'an object name',
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  injectorWebhook: {
    env: 'SFD_INJECTOR_WEBHOOK',
    description: 'the MutatingWebhookConfiguration whose CA bundle the injector keeps; with SFD_INJECTOR_TLS_SECRET',
    parse: parseObjectName,
    allowed: 'an object name',
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
  injectorService: {
    env: 'SFD_INJECTOR_SERVICE',
    description:
      "the webhook's Service as NAME.NAMESPACE: the names its serving certificate is for, and the namespace " +
      'of SFD_INJECTOR_TLS_SECRET; with SFD_INJECTOR_TLS_SECRET',
    parse: parseServiceName,
    allowed: 'NAME.NAMESPACE, two DNS labels',
    commands: ['injector'],
  } satisfies SettingDefinition<{ name: string; namespace: string }>,
  injectorApiCredentials: {
    env: 'SFD_INJECTOR_API_CREDENTIALS',
    description:
      'the folder holding the service account token (token) and the API server CA (ca.crt) the injector calls the ' +
      'Kubernetes API with (KUBERNETES_SERVICE_HOST and _PORT name the server); with SFD_INJECTOR_TLS_SECRET',
    default: '/var/run/secrets/kubernetes.io/serviceaccount',
    ...text('a folder'),
    commands: ['injector'],
  } satisfies SettingDefinition<string>,
});
