import { describe, expect, it } from 'vitest';
import { addressInCidrs, parseCidrList } from '../../../src/secrets/token/cidr.js';
import { UserError } from '../../../src/shared/errors.js';

describe('parseCidrList', () => {
  it('accepts CIDR blocks and single addresses of both families, trimmed, without empties', () => {
    expect(parseCidrList([' 10.0.0.0/8', '192.168.1.7', '', '::1/128', 'fe80::/10'])).toEqual(['10.0.0.0/8', '192.168.1.7', '::1/128', 'fe80::/10']);
  });

  it.each(['10.0.0.0/33', '300.1.1.1/8', 'example.com', '10.0.0.0/', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x'])('refuses %s naming it', (bad) => {
    expect(() => parseCidrList([bad])).toThrow(UserError);
    expect(() => parseCidrList([bad])).toThrow(`"${bad}"`);
  });
});

describe('addressInCidrs', () => {
  it('matches IPv4 addresses inside a block and refuses those outside', () => {
    expect(addressInCidrs('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(addressInCidrs('11.1.2.3', ['10.0.0.0/8'])).toBe(false);
  });

  it('treats a bare address as a single-host block', () => {
    expect(addressInCidrs('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(addressInCidrs('127.0.0.2', ['127.0.0.1'])).toBe(false);
  });

  it('matches IPv4-mapped IPv6 peers against IPv4 blocks', () => {
    expect(addressInCidrs('::ffff:127.0.0.1', ['127.0.0.1/32'])).toBe(true);
    expect(addressInCidrs('::ffff:127.0.0.1', ['10.0.0.0/8'])).toBe(false);
  });

  it('matches IPv6 addresses against IPv6 blocks', () => {
    expect(addressInCidrs('::1', ['::1/128'])).toBe(true);
    expect(addressInCidrs('fe80::1', ['fe80::/10'])).toBe(true);
    expect(addressInCidrs('2001:db8::1', ['fe80::/10'])).toBe(false);
  });

  it('accepts when any block matches', () => {
    expect(addressInCidrs('192.168.0.5', ['10.0.0.0/8', '192.168.0.0/16'])).toBe(true);
  });

  it('never matches an address that does not parse', () => {
    expect(addressInCidrs('', ['0.0.0.0/0'])).toBe(false);
    expect(addressInCidrs('not-an-ip', ['0.0.0.0/0'])).toBe(false);
  });
});
