// Which secret files a Secret mounted beside the key store carries, and the command that makes it.
import test from 'ava';
import { kubeSecretLayout } from '../../../src/keys/kube-secret-layout.js';

const entry = (index: number, secretFile: string, path: string) => ({
  label: `profiles.p.keys[${index}].secretFile`,
  secretFile,
  path,
});

test('of two secret files of one name the Secret carries the one beside the store; the other is warned about', (t) => {
  const layout = kubeSecretLayout({ path: '/s/keystore.json', directory: false }, [
    entry(0, '../other/a.secret', '/other/a.secret'),
    entry(1, 'a.secret', '/s/a.secret'),
    entry(2, 'a.secret', '/s/a.secret'),
    entry(3, 'b.secret', '/s/b.secret'),
    entry(4, 'sub/b.secret', '/s/sub/b.secret'),
  ]);
  t.deepEqual(
    layout.stranded.map((s) => s.label),
    ['profiles.p.keys[0].secretFile', 'profiles.p.keys[4].secretFile'],
  );
  t.regex(layout.stranded[0]!.reason, /is not beside the key store/);
  t.is(
    layout.createCommand,
    'kubectl -n NAMESPACE create secret generic sfd-keys --from-file=keystore.json=/s/keystore.json ' +
      '--from-file=a.secret=/s/a.secret --from-file=b.secret=/s/b.secret',
  );
});

test('a path a shell would split is quoted as one word', (t) => {
  const layout = kubeSecretLayout({ path: "/my keys/it's.json", directory: false }, [
    entry(0, 'a.secret', '/my keys/a.secret'),
  ]);
  t.deepEqual(layout.stranded, []);
  t.is(
    layout.createCommand,
    "kubectl -n NAMESPACE create secret generic sfd-keys '--from-file=it'\\''s.json=/my keys/it'\\''s.json' " +
      "'--from-file=a.secret=/my keys/a.secret'",
  );
});

test('in a directory of per-profile files every secret file is warned about, and no command is offered', (t) => {
  const layout = kubeSecretLayout({ path: '/s', directory: true }, [entry(0, 'a.secret', '/s/a.secret')]);
  t.is(layout.createCommand, null);
  t.regex(layout.stranded[0]!.reason, /mounts only the <profile>\.json files/);
});
