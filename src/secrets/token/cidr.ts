/**
 * CIDR binding for tokens: a bound token is accepted only from an address inside one of its blocks.
 * Entries are CIDR blocks or single addresses, IPv4 or IPv6, as Vault's bound_cidrs accept them.
 */
import { BlockList, isIP } from 'node:net';
import { UserError } from '../../shared/errors.js';

interface Block {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

function parseBlock(entry: string): Block | undefined {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  let prefix = max;
  if (slash !== -1) {
    const text = entry.slice(slash + 1);
    if (!/^\d{1,3}$/.test(text)) return undefined;
    prefix = Number(text);
    if (prefix > max) return undefined;
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Checks and trims a bound_cidrs list; throws a 400 naming the first entry that is not a CIDR or an address. */
export function parseCidrList(entries: string[], field = 'bound_cidrs'): string[] {
  const out: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (!parseBlock(entry)) throw new UserError(`error parsing ${field}: invalid CIDR block or IP address "${entry}"`);
    out.push(entry);
  }
  return out;
}

/**
 * A socket reports IPv4 peers of a dual-stack listener as IPv4-mapped IPv6 (::ffff:127.0.0.1); those are
 * matched as the IPv4 address they are, so `127.0.0.1/32` binds them as users expect.
 */
function normaliseAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  let a = address.trim();
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  if (mapped) a = mapped[1];
  const version = isIP(a);
  if (version === 0) return undefined;
  return { address: a, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** True when `address` is inside at least one of `cidrs`. An address that does not parse is never inside. */
export function addressInCidrs(address: string, cidrs: string[]): boolean {
  const peer = normaliseAddress(address);
  if (!peer) return false;
  const list = new BlockList();
  for (const entry of cidrs) {
    const block = parseBlock(entry.trim());
    if (block) list.addSubnet(block.address, block.prefix, block.family);
  }
  return list.check(peer.address, peer.family);
}
