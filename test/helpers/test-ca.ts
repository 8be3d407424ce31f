// A certificate authority made by Debian's openssl for one test run, and a server certificate it signed for 127.0.0.1
// and localhost: a crawler that trusts the CA (NODE_EXTRA_CA_CERTS) talks to an https test server as to a real site.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** PEM files of a test CA and of a server certificate it issued. */
export interface TestCa {
  /** The CA's certificate (PEM file path): give it to the client, e.g. `NODE_EXTRA_CA_CERTS`. */
  caFile: string;
  /** The server's key and certificate (PEM text), for `node:https`'s `createServer`. */
  key: string;
  cert: string;
}

/**
 * Makes a CA and a server certificate (P-256, valid two days, SAN IP:127.0.0.1, DNS:localhost and each of `names`,
 * e.g. the hosts a test proxy serves) in `dir`.
 */
export async function makeTestCa(dir: string, names: readonly string[] = []): Promise<TestCa> {
  const f = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  run(['req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=rdfscout test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  run(['req', ...ec, '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1']);
  await writeFile(f('server.ext'), `subjectAltName=IP:127.0.0.1,DNS:localhost${names.map((n) => `,DNS:${n}`).join('')}\nextendedKeyUsage=serverAuth\n`);
  run(['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.pem'), '-days', '2', '-extfile', f('server.ext')]);
  return { caFile: f('ca.pem'), key: await readFile(f('server.key'), 'utf8'), cert: await readFile(f('server.pem'), 'utf8') };
}
