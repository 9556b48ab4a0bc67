// The variables the kubelet writes for each Service of a pod's namespace are recognised by name and
// value, so that a Service named `sfd-...` draws no warning, while a misspelt setting still does. The
// cases are the kubelet's own: the Services and expected variables of Kubernetes'
// pkg/kubelet/envvars/envvars_test.go (kubernetes v1.36, as vendored in openshift/microshift
// deps/github.com/openshift/kubernetes at 8e16b12fda, Apache-2.0), with the names prefixed `SFD_` as a
// Service named `sfd-foo-bar` gives them.
import test from 'ava';
import { isServiceLink } from '../../../src/config/service-links.js';
import { SETTING_LIST } from '../../../src/settings/all-settings.js';

const KUBELET_VARIABLES: readonly [string, string][] = [
  ['FOO_BAR_SERVICE_HOST', '1.2.3.4'],
  ['FOO_BAR_SERVICE_PORT', '8080'],
  ['FOO_BAR_PORT', 'tcp://1.2.3.4:8080'],
  ['FOO_BAR_PORT_8080_TCP', 'tcp://1.2.3.4:8080'],
  ['FOO_BAR_PORT_8080_TCP_PROTO', 'tcp'],
  ['FOO_BAR_PORT_8080_TCP_PORT', '8080'],
  ['FOO_BAR_PORT_8080_TCP_ADDR', '1.2.3.4'],
  ['ABC_123_SERVICE_HOST', '5.6.7.8'],
  ['ABC_123_SERVICE_PORT', '8081'],
  ['ABC_123_SERVICE_PORT_U_D_P', '8081'],
  ['ABC_123_SERVICE_PORT_T_C_P', '8081'],
  ['ABC_123_PORT', 'udp://5.6.7.8:8081'],
  ['ABC_123_PORT_8081_UDP', 'udp://5.6.7.8:8081'],
  ['ABC_123_PORT_8081_UDP_PROTO', 'udp'],
  ['ABC_123_PORT_8081_UDP_PORT', '8081'],
  ['ABC_123_PORT_8081_UDP_ADDR', '5.6.7.8'],
  ['Q_U_U_X_SERVICE_PORT_8083', '8083'],
  ['SUPER_IPV6_SERVICE_HOST', '2001:DB8::'],
  ['SUPER_IPV6_PORT', 'udp://[2001:DB8::]:8084'],
  ['SUPER_IPV6_PORT_8084_TCP', 'tcp://[2001:DB8::]:8084'],
  ['SUPER_IPV6_PORT_8084_TCP_ADDR', '2001:DB8::'],
  ['SCTP_1_PORT', 'sctp://1.2.3.4:777'],
  ['SCTP_1_PORT_777_SCTP_PROTO', 'sctp'],
];

test('every variable the kubelet writes for a Service named sfd-... is recognised', (t) => {
  for (const [name, value] of KUBELET_VARIABLES) t.true(isServiceLink(`SFD_${name}`, value), `SFD_${name}=${value}`);
});

test('a misspelt setting with a value of its own is not taken for a service link', (t) => {
  const mistakes: [string, string][] = [
    ['SFD_LISTEN_PORT', '8080'],
    ['SFD_ADMIN_PORT', ':9090'],
    ['SFD_UPSTREAM_SERVICE_HOST', 'gateway.example.com'],
    ['SFD_NOTIFY_SERVICE_PORT', 'http'],
    ['SFD_SIDECAR_PORT_8080_TCP_ADDR', 'localhost'],
    ['SFD_SIDECAR_PORT', 'http://10.0.0.1:8080'],
  ];
  for (const [name, value] of mistakes) t.false(isServiceLink(name, value), `${name}=${value}`);
});

test('no setting has a name a Service could give it', (t) => {
  const service = (setting: string): boolean =>
    /_SERVICE_HOST$|_SERVICE_PORT(_[A-Z0-9_]+)?$|_PORT$|_PORT_[0-9]+_(TCP|UDP|SCTP)(_PROTO|_PORT|_ADDR)?$/.test(
      setting,
    );
  t.deepEqual(
    SETTING_LIST.map((setting) => setting.env).filter(service),
    [],
    'a Service of the pod namespace would set it through the kubelet',
  );
});
