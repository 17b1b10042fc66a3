import type { IncomingMessage } from 'node:http';
import { peerKey, TrustedProxies } from './client-address';

const request = (remoteAddress: string | undefined, forwardedFor?: string | string[]) =>
  ({ socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

describe('TrustedProxies', () => {
  it('trusts nobody by default: X-Forwarded-For is ignored', () => {
    expect(TrustedProxies.none.clientOf(request('198.51.100.9', '203.0.113.7'))).toBe('198.51.100.9');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    const proxies = TrustedProxies.parse('10.0.0.0/8, 192.0.2.10');
    expect(proxies.clientOf(request('198.51.100.9', '203.0.113.7'))).toBe('198.51.100.9');
  });

  it('takes the right-most address that is not a trusted proxy', () => {
    const proxies = TrustedProxies.parse('10.0.0.0/8 192.0.2.10');
    // The client forged the first entry; our two proxies appended what they saw.
    expect(proxies.clientOf(request('192.0.2.10', '1.1.1.1, 203.0.113.7, 10.1.2.3'))).toBe('203.0.113.7');
    expect(proxies.clientOf(request('::ffff:10.0.0.5', ['1.1.1.1', '203.0.113.8']))).toBe('203.0.113.8');
  });

  it('without a usable header, the trusted proxy itself is the client', () => {
    const proxies = TrustedProxies.parse('10.0.0.1');
    expect(proxies.clientOf(request('10.0.0.1'))).toBe('10.0.0.1');
    expect(proxies.clientOf(request('10.0.0.1', ''))).toBe('10.0.0.1');
    // A hop that is not an address stops the walk at the proxy that passed it on.
    expect(proxies.clientOf(request('10.0.0.1', '203.0.113.7, unknown'))).toBe('10.0.0.1');
  });

  it('with every hop trusted, the left-most one is the client', () => {
    expect(TrustedProxies.parse('10.0.0.0/8').clientOf(request('10.0.0.1', '10.0.0.3, 10.0.0.2'))).toBe('10.0.0.3');
  });

  it('counts an IPv6 client by its /64 network, an IPv4-mapped one as IPv4', () => {
    const proxies = TrustedProxies.parse('::1');
    expect(proxies.clientOf(request('::1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd'))).toBe('2001:db8:1:2::/64');
    expect(TrustedProxies.none.clientOf(request('2001:db8:1:2::77'))).toBe('2001:db8:1:2::/64');
    expect(TrustedProxies.none.clientOf(request('::ffff:127.0.0.3'))).toBe('127.0.0.3');
    expect(peerKey('::ffff:127.0.0.3')).toBe('127.0.0.3');
  });

  it('matches addresses and ranges of both families, mapped ranges included', () => {
    const proxies = TrustedProxies.parse('127.0.0.1,fd00::/8 ::ffff:172.16.0.0/108');
    expect(proxies.size).toBe(3);
    expect(proxies.includes('127.0.0.1')).toBe(true);
    expect(proxies.includes('::ffff:127.0.0.1')).toBe(true);
    expect(proxies.includes('127.0.0.2')).toBe(false);
    expect(proxies.includes('fd12::1')).toBe(true);
    expect(proxies.includes('172.16.3.4')).toBe(true);
    expect(proxies.includes('172.32.0.1')).toBe(false);
    expect(proxies.includes(undefined)).toBe(false);
  });

  it.each(['localhost', '10.0.0.0/33', '300.1.1.1', 'fd00::/129'])('refuses %s', (entry) => {
    expect(() => TrustedProxies.parse(entry)).toThrow(`TRUSTED_PROXIES: "${entry}" is not an address or a CIDR range`);
  });
});
