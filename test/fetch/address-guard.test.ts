import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { checkIpLiteral, createGuardedLookup, isPrivateAddress, parseIpv6, type ResolveAll } from '../../src/fetch/address-guard.ts';

const PRIVATE = [
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.1',
  '10.255.255.255',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.1.2.3',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '[::1]',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'fe80::1%eth0',
  'febf::1',
  'fec0::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:a9fe:a9fe',
  '::127.0.0.1',
  '64:ff9b::10.0.0.1',
  '2002:7f00:1::',
  '2002:c0a8:101::1',
  '2001:db8::1',
  '100::1',
  '0:0:0:0:0:0:0:1',
];

const PUBLIC = [
  '1.1.1.1',
  '8.8.8.8',
  '9.255.255.255',
  '11.0.0.1',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.1',
  '169.253.255.255',
  '169.255.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '192.167.255.255',
  '192.169.0.1',
  '193.0.0.1',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  'fbff::1',
  'fe7f::1',
];

describe('isPrivateAddress', () => {
  it.each(PRIVATE)('refuses %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });
  it.each(PUBLIC)('allows %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
  it('is false for things that are not IP addresses', () => {
    for (const s of ['localhost', 'example.org', '', '256.1.1.1', '1.2.3', '01.2.3.4x', ':::1', '1::2::3']) {
      expect(isPrivateAddress(s)).toBe(false);
    }
  });
});

describe('parseIpv6', () => {
  it('expands ::, embedded IPv4 and zones', () => {
    expect(parseIpv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIpv6('1:2:3:4:5:6:7.8.9.10')).toEqual([1, 2, 3, 4, 5, 6, 0x0708, 0x090a]);
    expect(parseIpv6('fe80::1%25lo')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('[2001:db8::]')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('1.2.3.4')).toBeNull();
  });
});

describe('checkIpLiteral', () => {
  it('refuses private IP literals after WHATWG canonicalisation (decimal, hex, octal, mapped)', () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://10.0.0.1/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://0/',
    ]) {
      const refusal = checkIpLiteral(new URL(url));
      expect(refusal?.code, url).toBe('RDFSCOUT_PRIVATE_ADDRESS');
    }
  });
  it('leaves public literals and host names alone (names are checked after resolution)', () => {
    for (const url of ['http://8.8.8.8/', 'http://[2606:4700::1]/', 'http://example.org/', 'http://localhost.example.org/']) {
      expect(checkIpLiteral(new URL(url)), url).toBeNull();
    }
  });
  it('refuses localhost names by name (RFC 6761), as no resolution happens through a proxy', () => {
    for (const url of ['http://localhost/', 'http://LOCALHOST:8080/x', 'http://api.localhost/', 'http://localhost./']) {
      expect(checkIpLiteral(new URL(url))?.code, url).toBe('RDFSCOUT_PRIVATE_ADDRESS');
    }
  });
});

/** A fake resolver answering from a table; records the names asked. */
function fakeResolver(table: Record<string, string[]>, asked: string[] = []): ResolveAll {
  return (hostname, _options, callback) => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) {
      const err: NodeJS.ErrnoException = new Error(`ENOTFOUND ${hostname}`);
      err.code = 'ENOTFOUND';
      callback(err, []);
      return;
    }
    callback(
      null,
      addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
}

function runLookup(lookup: ReturnType<typeof createGuardedLookup>, host: string, all: boolean) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) => {
    lookup(host, all ? { all: true } : {}, (err, address, family) => resolve({ err, address, family }));
  });
}

describe('createGuardedLookup', () => {
  const resolve = fakeResolver({
    'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
    'mixed.example': ['93.184.216.34', '10.0.0.5'],
    'rebind.example': ['169.254.169.254'],
    'v6local.example': ['::1'],
  });

  it('passes public addresses through, in both callback shapes net.connect uses', async () => {
    const lookup = createGuardedLookup({ allowPrivate: false, resolve });
    const one = await runLookup(lookup, 'public.example', false);
    expect(one).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    const all = await runLookup(lookup, 'public.example', true);
    expect(all.err).toBeNull();
    expect((all.address as LookupAddress[]).map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
  });

  it('refuses a name if any of its addresses is private', async () => {
    const lookup = createGuardedLookup({ allowPrivate: false, resolve });
    for (const host of ['mixed.example', 'rebind.example', 'v6local.example']) {
      const { err } = await runLookup(lookup, host, true);
      expect((err as { code?: string } | null)?.code, host).toBe('RDFSCOUT_PRIVATE_ADDRESS');
    }
  });

  it('with allowPrivate returns the private addresses, and passes resolver errors on', async () => {
    const lookup = createGuardedLookup({ allowPrivate: true, resolve });
    expect(await runLookup(lookup, 'rebind.example', false)).toEqual({ err: null, address: '169.254.169.254', family: 4 });
    const missing = await runLookup(lookup, 'nowhere.example', false);
    expect(missing.err?.code).toBe('ENOTFOUND');
  });
});
