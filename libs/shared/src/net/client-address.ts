import ipaddr from 'ipaddr.js';
import type { IncomingMessage } from 'node:http';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address as one form: IPv4-mapped IPv6 (`::ffff:127.0.0.1`, a dual-stack socket) as plain IPv4. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = text.trim();
  return ipaddr.isValid(trimmed) ? ipaddr.process(trimmed) : null;
}

/**
 * The client as per-client limits count it: an IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber usually holds a whole /64, so counting single IPv6 addresses would let anyone
 * step around every limit).
 */
export function clientKey(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/** The client key of a socket peer as Node reports it (`''` when the socket is already gone). */
export function peerKey(remoteAddress: string | undefined): string {
  const parsed = remoteAddress ? parseAddress(remoteAddress) : null;
  return parsed ? clientKey(parsed) : (remoteAddress ?? '');
}

/**
 * The proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`: addresses and CIDR ranges,
 * separated by commas or spaces; none by default). Anyone can send the header; only a proxy of ours
 * appends the address it really got the request from, so the header is read from the right and
 * only as far as our own proxies reach.
 */
export class TrustedProxies {
  static readonly none = new TrustedProxies([]);

  private constructor(private readonly ranges: readonly Range[]) {}

  /** Parses `TRUSTED_PROXIES`; an entry that is neither an address nor a CIDR range throws. */
  static parse(list: string): TrustedProxies {
    const entries = list.split(/[\s,]+/).filter((entry) => entry.length > 0);
    return new TrustedProxies(
      entries.map((entry): Range => {
        if (entry.includes('/')) {
          if (!ipaddr.isValidCIDR(entry)) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or a CIDR range`);
          const [address, bits] = ipaddr.parseCIDR(entry);
          // ::ffff:10.0.0.0/104 is 10.0.0.0/8: compare like with like.
          if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
            return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
          }
          return [address, bits];
        }
        const address = parseAddress(entry);
        if (!address) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an address or a CIDR range`);
        return [address, address.kind() === 'ipv4' ? 32 : 128];
      }),
    );
  }

  get size(): number {
    return this.ranges.length;
  }

  /** Whether a socket peer (as Node reports it) is one of the trusted proxies. */
  includes(remoteAddress: string | undefined): boolean {
    const address = remoteAddress ? parseAddress(remoteAddress) : null;
    return address !== null && this.trusts(address);
  }

  /**
   * The client a request comes from, as per-client limits count it (see clientKey): the socket
   * peer, or, when the peer is a trusted proxy, the right-most `X-Forwarded-For` entry that is not a
   * trusted proxy itself. An entry that is not an address ends the walk at the hop that passed it on.
   */
  clientOf(req: IncomingMessage): string {
    const peer = req.socket.remoteAddress ? parseAddress(req.socket.remoteAddress) : null;
    if (!peer) return peerKey(req.socket.remoteAddress);
    if (this.ranges.length === 0 || !this.trusts(peer)) return clientKey(peer);
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseAddress(hops[i]!);
      if (!hop) break;
      client = hop;
      if (!this.trusts(hop)) break;
    }
    return clientKey(client);
  }

  private trusts(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return this.ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  }
}
