// Which upstreams go through the egress proxy: SFD_UPSTREAM_PROXY over HTTPS_PROXY over https_proxy,
// NO_PROXY read as curl and Go read it (names with their subdomains, addresses, CIDR blocks, ports),
// loopback and plain HTTP always direct, and a proxy password never repeated in an error.
import test from 'ava';
import { parseProxyUrl, readEgressProxy, type EgressProxy } from '../../../src/config/egress-proxy.js';
import { describeUrl } from '../../../src/config/describe-url.js';
import { proxyFor } from '../../../src/outbound/egress-route.js';
import { isLoopback, parseNoProxy, readNoProxy } from '../../../src/config/no-proxy.js';
import { SettingReader, type SettingValues } from '../../../src/config/setting-reader.js';
import { toUpstream } from '../../helpers/upstream-target.js';

const noFiles = {
  readFile: (): string => {
    throw new Error('no files here');
  },
};

function read(values: SettingValues): { egress: EgressProxy | null; ignored: string | null; problems: string[] } {
  const reader = new SettingReader(values, noFiles);
  const { proxy, ignored } = readEgressProxy(reader);
  return { egress: proxy, ignored, problems: reader.problems };
}

function bypasses(list: string, hostname: string, port = 443): boolean {
  const parsed = parseNoProxy(list);
  if (!parsed.ok) throw new Error(parsed.allowed);
  return parsed.value.bypasses(hostname, port);
}

test('SFD_UPSTREAM_PROXY wins over HTTPS_PROXY, which wins over https_proxy; blank counts as unset', (t) => {
  t.is(
    read({
      SFD_UPSTREAM_PROXY: 'http://ours:3128',
      HTTPS_PROXY: 'http://cluster:3128',
      https_proxy: 'http://lower:3128',
    }).egress?.url.host,
    'ours:3128',
  );
  t.is(
    read({ SFD_UPSTREAM_PROXY: ' ', HTTPS_PROXY: 'http://cluster:3128', https_proxy: 'http://lower:3128' }).egress
      ?.source,
    'HTTPS_PROXY',
  );
  t.is(read({ https_proxy: 'http://lower:3128' }).egress?.source, 'https_proxy');
  t.is(
    read({ HTTP_PROXY: 'http://only-for-http:3128', NO_PROXY: 'x' }).egress,
    null,
    'HTTP_PROXY is not used, and NO_PROXY alone means nothing',
  );
});

test(
  'a proxy URL: scheme-less means http, a trailing ' + 'slash is fine; path, query and other schemes are ' + 'refused',
  (t) => {
    t.is(
      parseProxyUrl('proxy.corp:3128').ok && (parseProxyUrl('proxy.corp:3128') as { value: URL }).value.href,
      'http://proxy.corp:3128/',
    );
    t.true(parseProxyUrl('http://proxy.corp:3128/').ok);
    t.true(parseProxyUrl('https://proxy.corp').ok);
    for (const bad of [
      'socks5://proxy:1080',
      'http://proxy:3128/path',
      'http://proxy:3128?x=1',
      'http://',
      '::::',
      'http://me:50%off@proxy:3128',
    ])
      t.false(parseProxyUrl(bad).ok, bad);
    const encoded = parseProxyUrl('http://me:50%25off@proxy:3128');
    t.true(encoded.ok && decodeURIComponent(encoded.value.password) === '50%off');
  },
);

test(
  'an SFD_UPSTREAM_PROXY the sidecar cannot use is a configuration error; an HTTPS_PROXY is set aside; neither ' +
    'repeats the password',
  (t) => {
    const own = read({ SFD_UPSTREAM_PROXY: 'socks5://user:hunter2-proxy@proxy:1080' });
    t.is(own.problems.length, 1);
    t.regex(own.problems[0]!, /^SFD_UPSTREAM_PROXY: must be an http:\/\/ or https:\/\/ proxy URL/);
    t.false(own.problems[0]!.includes('hunter2-proxy'));
    const pods = read({ HTTPS_PROXY: 'socks5://user:hunter2-proxy@proxy:1080', NO_PROXY: 'bad/entry' });
    t.deepEqual(pods.problems, []);
    t.is(pods.egress, null);
    t.regex(
      pods.ignored!,
      /^HTTPS_PROXY is not a proxy the sidecar can use \(it must be an http:\/\/ or https:\/\/ proxy URL/,
    );
    t.regex(pods.ignored!, /\); upstreams are reached directly\. Set SFD_UPSTREAM_PROXY/);
    t.false(pods.ignored!.includes('hunter2-proxy'));
    t.is(
      read({ SFD_UPSTREAM_PROXY: 'http://ours:3128', HTTPS_PROXY: 'socks5://proxy:1080' }).ignored,
      null,
      'nothing is set aside when ours is used',
    );
  },
);

test('the proxy is described without its credentials', (t) => {
  t.is(describeUrl(new URL('http://user:hunter2-proxy@proxy:3128')), 'http://proxy:3128 (with credentials)');
  t.is(describeUrl(new URL('https://proxy')), 'https://proxy');
});

test('a URL written any way is described without its user and password, parsed or not', (t) => {
  const described: [string, string][] = [
    ['https://user:hunter2@gw.example/', 'https://gw.example/ (with credentials)'],
    ['https://user:hunter2@gw.example/v1?x=a@b', 'https://gw.example/v1?x=a@b (with credentials)'],
    ['https://a@b:hunter2@gw.example', 'https://gw.example (with credentials)'],
    ['HTTPS://user:hunter2@[::1]:8443/p', 'HTTPS://[::1]:8443/p (with credentials)'],
    ['https:///user:hunter2@gw.example', 'https:///gw.example (with credentials)'],
    ['https:\\\\user:hunter2@gw.example', 'https:\\\\gw.example (with credentials)'],
    ['https:user:hunter2@gw.example', 'https:gw.example (with credentials)'],
    ['https://user:hunter2\\@gw.example', 'https://gw.example (with credentials)'],
    ['user:hunter2@gw.example:443', 'gw.example:443 (with credentials)'],
    ['//user:hunter2@gw.example', '//gw.example (with credentials)'],
    ['ftp://user:hunter2@[bad', 'ftp://[bad (with credentials)'],
    ['https://gw.example/a@b', 'https://gw.example/a@b'],
    ['https://gw.example', 'https://gw.example'],
    ['not a url', 'not a url'],
  ];
  for (const [url, expected] of described) t.is(describeUrl(url), expected, url);
});

test('NO_PROXY names cover their subdomains; a leading dot or *. only the subdomains', (t) => {
  t.true(bypasses('example.com', 'example.com'));
  t.true(bypasses('example.com', 'api.example.com'));
  t.false(bypasses('example.com', 'notexample.com'));
  t.false(bypasses('.example.com', 'example.com'));
  t.true(bypasses('.example.com', 'api.example.com'));
  t.true(bypasses('*.example.com', 'a.b.example.com'));
  t.true(bypasses('Example.COM', 'API.example.com'), 'case does not matter');
  t.true(bypasses('*', 'anything.example'));
});

test('NO_PROXY addresses, CIDR blocks and ports', (t) => {
  t.true(bypasses('10.0.0.0/8', '10.96.0.1'));
  t.false(bypasses('10.0.0.0/8', '11.0.0.1'));
  t.true(bypasses('192.168.1.7', '192.168.1.7'));
  t.true(bypasses('fd00::/8', 'fd12::1'));
  t.true(bypasses('[2001:db8::1]', '2001:db8::1'));
  t.true(bypasses('gw.example:8443', 'gw.example', 8443));
  t.false(bypasses('gw.example:8443', 'gw.example', 443));
  t.true(bypasses('10.1.2.3:8443', '10.1.2.3', 8443));
  t.false(bypasses('10.1.2.3:8443', '10.1.2.3', 443));
  t.true(bypasses(' a.example , b.example ', 'b.example'), 'spaces around entries');
});

test('SFD_UPSTREAM_NO_PROXY is strict; a cluster NO_PROXY skips the entries it cannot read', (t) => {
  const strict = parseNoProxy('.svc,10.0.0.0/33,ok.example');
  t.false(strict.ok);
  t.regex((strict as { allowed: string }).allowed, /"10\.0\.0\.0\/33" is none of these/);
  const lenient = readNoProxy('.svc,10.0.0.0/33,bad/entry,ok.example');
  t.deepEqual(lenient.unread, ['10.0.0.0/33', 'bad/entry']);
  t.true(lenient.list.bypasses('ok.example', 443));
  t.true(lenient.list.bypasses('api.default.svc', 443));
  const { egress, problems } = read({
    HTTPS_PROXY: 'http://proxy:3128',
    NO_PROXY: 'bad/entry',
    SFD_UPSTREAM_NO_PROXY: '',
  });
  t.deepEqual(problems, []);
  t.deepEqual(egress?.unreadNoProxy, ['bad/entry']);
  t.regex(
    read({ HTTPS_PROXY: 'http://proxy:3128', SFD_UPSTREAM_NO_PROXY: 'bad/entry' }).problems[0]!,
    /^SFD_UPSTREAM_NO_PROXY: must be/,
  );
});

test('only HTTPS upstreams that are neither loopback nor listed go through the proxy', (t) => {
  const egress = read({ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: '.internal.example' }).egress;
  t.is(proxyFor(egress, toUpstream('https://gw.example.com'))?.host, 'proxy:3128');
  t.is(proxyFor(egress, toUpstream('http://gw.example.com')), null, 'plain HTTP connects directly');
  t.is(proxyFor(egress, toUpstream('https://api.internal.example')), null);
  for (const loopback of [
    'https://localhost:8443',
    'https://127.0.0.1',
    'https://127.3.2.1',
    'https://[::1]:8443',
    'https://app.localhost',
  ]) {
    t.is(proxyFor(egress, toUpstream(loopback)), null, loopback);
  }
  t.is(proxyFor(null, toUpstream('https://gw.example.com')), null);
  t.false(isLoopback('128.0.0.1'));
});
