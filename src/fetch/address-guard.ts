// **address-guard** refuses targets on private, loopback, link-local and other non-public addresses (SSRF guard).
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import { RdfscoutError } from '../errors.ts';

/** IPv4 blocks that are not public unicast: [first octets as a 32-bit number, prefix length, name]. */
const PRIVATE_V4: ReadonlyArray<readonly [number, number, string]> = [
  [0x00000000, 8, 'this network / unspecified'], // 0.0.0.0/8
  [0x0a000000, 8, 'private'], // 10.0.0.0/8
  [0x64400000, 10, 'carrier-grade NAT'], // 100.64.0.0/10
  [0x7f000000, 8, 'loopback'], // 127.0.0.0/8
  [0xa9fe0000, 16, 'link-local'], // 169.254.0.0/16 (cloud metadata lives here)
  [0xac100000, 12, 'private'], // 172.16.0.0/12
  [0xc0000000, 24, 'IETF protocol assignments'], // 192.0.0.0/24
  [0xc0000200, 24, 'documentation'], // 192.0.2.0/24
  [0xc0586300, 24, '6to4 relay anycast'], // 192.88.99.0/24
  [0xc0a80000, 16, 'private'], // 192.168.0.0/16
  [0xc6120000, 15, 'benchmarking'], // 198.18.0.0/15
  [0xc6336400, 24, 'documentation'], // 198.51.100.0/24
  [0xcb007100, 24, 'documentation'], // 203.0.113.0/24
  [0xe0000000, 4, 'multicast'], // 224.0.0.0/4
  [0xf0000000, 4, 'reserved / broadcast'], // 240.0.0.0/4, incl. 255.255.255.255
];

/** Parses a dotted-quad IPv4 address into an unsigned 32-bit number, or null. */
function parseIpv4(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** Parses an IPv6 address (with `::`, an embedded dotted quad, an optional `%zone`) into 8 groups, or null. */
export function parseIpv6(input: string): number[] | null {
  let ip = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  if (isIP(ip) !== 6) return null;
  let tail: number[] = [];
  const lastColon = ip.lastIndexOf(':');
  const last = ip.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIpv4(last);
    if (v4 === null) return null;
    tail = [v4 >>> 16, v4 & 0xffff];
    ip = `${ip.slice(0, lastColon + 1)}0`; // placeholder group, dropped below
  }
  const halves = ip.split('::');
  const toGroups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  let head = toGroups(halves[0] ?? '');
  let rest = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  if (tail.length > 0) {
    if (halves.length === 2) rest = rest.slice(0, -1);
    else head = head.slice(0, -1);
  }
  const fill = 8 - head.length - rest.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
}

function v4InBlocks(value: number): boolean {
  return PRIVATE_V4.some(([base, prefix]) => {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    return ((value & mask) >>> 0) === base;
  });
}

function isPrivateV6(g: number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embeddedV4 = ((g6 << 16) >>> 0) + g7;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return true; // :: unspecified
  if (zeroUpTo(7) && g7 === 1) return true; // ::1 loopback
  if (zeroUpTo(5) && g5 === 0xffff) return v4InBlocks(embeddedV4); // ::ffff:a.b.c.d IPv4-mapped
  if (zeroUpTo(6)) return v4InBlocks(embeddedV4); // ::a.b.c.d IPv4-compatible (deprecated)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4InBlocks(embeddedV4); // NAT64
  if (g0 === 0x2002) return v4InBlocks(((g1 << 16) >>> 0) + g2); // 6to4 carries an IPv4 address
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // 100::/64 discard
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // 2001:db8::/32 documentation
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique-local
  if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g0 & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((g0 & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  return false;
}

/**
 * Whether an IP address is not a public unicast address: private (RFC 1918, fc00::/7), loopback,
 * link-local, CGNAT, unspecified, multicast, reserved, documentation, and the IPv4-mapped /
 * IPv4-compatible / NAT64 / 6to4 IPv6 forms of those. Accepts IPv6 with or without brackets.
 * Returns false for strings that are not IP addresses (host names are checked after resolution).
 */
export function isPrivateAddress(ip: string): boolean {
  const v4 = parseIpv4(ip);
  if (v4 !== null) return v4InBlocks(v4);
  const v6 = parseIpv6(ip);
  return v6 !== null && isPrivateV6(v6);
}

/** The host of a parsed URL if it is an IP literal (brackets removed), else null. */
function ipLiteralHost(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? null : host;
}

/** Names that always mean this machine (RFC 6761 §6.3): `localhost` and any name under `.localhost`. */
function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * Refuses a URL whose host is a private IP literal, or a `localhost` name (RFC 6761: it is loopback whatever DNS
 * says; through a proxy no name is resolved by us, so the name itself is refused). WHATWG URL has already
 * canonicalised decimal, octal and hex IPv4 forms (`http://2130706433/` → `127.0.0.1`), so the check runs on
 * `url.hostname`.
 */
export function checkIpLiteral(url: URL): RdfscoutError | null {
  if (isLocalhostName(url.hostname)) {
    return new RdfscoutError('RDFSCOUT_PRIVATE_ADDRESS', `Refusing ${url.href}: ${url.hostname} is this machine, not a public host (use --allow-private to allow it)`, { url: url.href });
  }
  const ip = ipLiteralHost(url);
  if (ip === null || !isPrivateAddress(ip)) return null;
  return new RdfscoutError('RDFSCOUT_PRIVATE_ADDRESS', `Refusing ${url.href}: ${ip} is not a public address (use --allow-private to allow it)`, { url: url.href });
}

/** Node's `dns.lookup` callback shape, as `net.connect({ lookup })` calls it. */
export type LookupFunction = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** A resolver returning all addresses of a name (the shape of `dns.lookup` with `all: true`). */
export type ResolveAll = (hostname: string, options: LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const defaultResolve: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `lookup` for `net.connect` (undici `Agent({ connect: { lookup } })`) that resolves all addresses
 * of a name and fails with RDFSCOUT_PRIVATE_ADDRESS if any is private; otherwise the socket connects
 * to exactly the addresses checked, so there is no DNS-rebinding gap between check and connect.
 * With `allowPrivate` the check is skipped but the resolver is still used.
 */
export function createGuardedLookup(options: { allowPrivate: boolean; resolve?: ResolveAll }): LookupFunction {
  const resolve = options.resolve ?? defaultResolve;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses ?? [];
      const first = list[0];
      if (first === undefined) {
        const e: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        e.code = 'ENOTFOUND';
        return callback(e, []);
      }
      const bad = options.allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad !== undefined) {
        const e = new RdfscoutError('RDFSCOUT_PRIVATE_ADDRESS', `Refusing ${hostname}: it resolves to ${bad.address}, not a public address (use --allow-private to allow it)`);
        return callback(e as NodeJS.ErrnoException, []);
      }
      if (lookupOptions.all === true) return callback(null, list);
      return callback(null, first.address, first.family);
    });
  };
}
