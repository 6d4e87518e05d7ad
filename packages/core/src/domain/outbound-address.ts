import { isIP } from 'node:net';

/**
 * Whether an IP address is one a webhook must not reach unless allowed: loopback, private,
 * link-local (incl. cloud metadata at 169.254.169.254), carrier-grade NAT, unspecified,
 * multicast and reserved ranges, for IPv4 and IPv6 (incl. IPv4-mapped IPv6).
 */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return isPrivateV4(address);
  if (kind === 6) return isPrivateV6(address.toLowerCase());
  return true; // not an IP at all: refuse rather than guess
}

function isPrivateV4(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast and reserved
  );
}

function isPrivateV6(address: string): boolean {
  if (address === '::' || address === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return isPrivateV4(mapped[1]!);
  const first = Number.parseInt(address.split(':')[0] || '0', 16);
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    first === 0x64 // 64:ff9b::/96 NAT64 can reach IPv4 private space
  );
}
