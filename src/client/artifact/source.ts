/**
 * An artifact's `source` and `options`, read as go-getter reads them: the getter (a forced `x::` prefix,
 * the URL scheme, or a known host such as github.com), and the options go-getter takes from the URL's
 * query or from `options {}` (Nomad adds those to the query): `checksum`, `archive`, `filename`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export class UnsupportedSourceError extends Error {}

export type ChecksumType = 'md5' | 'sha1' | 'sha256' | 'sha512';

export interface Checksum {
  type: ChecksumType;
  hex: string;
}

export type ArtifactSource =
  | { kind: 'http'; url: URL }
  /** an absolute path, or a path relative to the task directory */
  | { kind: 'local'; path: string; relative: boolean };

export interface ParsedArtifact {
  source: ArtifactSource;
  checksum?: Checksum;
  /** `false` to never unpack; a type (`zip`, `tar.gz`…) to unpack as that whatever the name */
  archive?: string;
  /** the file name in `any` mode, instead of the URL's last path element */
  filename?: string;
  /** the path go-getter looks at for the archive type and the file name */
  namePath: string;
}

const HEX_LENGTHS: Record<number, ChecksumType> = { 32: 'md5', 40: 'sha1', 64: 'sha256', 128: 'sha512' };

export function parseChecksum(value: string): Checksum {
  let type: string | undefined;
  let hex = value.trim();
  const colon = hex.indexOf(':');
  if (colon >= 0) {
    type = hex.slice(0, colon).toLowerCase();
    hex = hex.slice(colon + 1);
  }
  if (type === 'file') throw new UnsupportedSourceError('checksum files ("checksum = file:…") are not supported by svc; give the checksum itself, e.g. "sha256:<hex>"');
  if (!/^[0-9a-fA-F]+$/.test(hex)) throw new Error(`invalid checksum ${JSON.stringify(value)}: the value must be hexadecimal`);
  type ??= HEX_LENGTHS[hex.length];
  if (type === undefined) throw new Error(`invalid checksum ${JSON.stringify(value)}: cannot tell its type from its length; write it as "<type>:<hex>"`);
  if (!['md5', 'sha1', 'sha256', 'sha512'].includes(type)) throw new Error(`unsupported checksum type ${JSON.stringify(type)} (use md5, sha1, sha256 or sha512)`);
  const want = Object.entries(HEX_LENGTHS).find(([, t]) => t === type)![0];
  if (hex.length !== Number(want)) throw new Error(`invalid checksum ${JSON.stringify(value)}: a ${type} checksum has ${want} hex digits, this one ${hex.length}`);
  return { type: type as ChecksumType, hex: hex.toLowerCase() };
}

function unsupported(getter: string, source: string): UnsupportedSourceError {
  return new UnsupportedSourceError(`the ${getter} getter is not supported by svc (source ${JSON.stringify(source)}); artifacts can come from http:// and https:// URLs and local paths (file://)`);
}

/** go-getter's detectors for sources without a scheme that are not local files. */
const HOST_GETTERS: [RegExp, string][] = [
  [/^(github\.com|gitlab\.com|bitbucket\.org)\//i, 'git'],
  [/^[\w.-]+@[\w.-]+:/, 'git'],
  [/^([\w-]+\.)*s3([.-][\w-]+)*\.amazonaws\.com\//i, 's3'],
  [/^([\w-]+\.)*(storage|www)\.googleapis\.com\//i, 'gcs'],
];

/** Reads `source` (already interpolated) and `options` (likewise) into what the getter does. */
export function parseArtifact(sourceIn: string, options: Record<string, string>): ParsedArtifact {
  let source = sourceIn.trim();
  let forced: string | undefined;
  const f = /^([A-Za-z0-9]+)::(.*)$/s.exec(source);
  if (f) {
    forced = f[1].toLowerCase();
    source = f[2];
    if (!['http', 'https', 'file'].includes(forced)) throw unsupported(forced, sourceIn);
  }

  const params = new URLSearchParams();
  let parsed: ArtifactSource;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(source)?.[1].toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      throw new Error(`invalid artifact URL ${JSON.stringify(source)}`);
    }
    for (const [k, v] of url.searchParams) params.append(k, v);
    parsed = { kind: 'http', url };
  } else if (scheme === 'file') {
    const q = source.indexOf('?');
    const bare = q >= 0 ? source.slice(0, q) : source;
    if (q >= 0) for (const [k, v] of new URLSearchParams(source.slice(q + 1))) params.append(k, v);
    // file:///abs/path, or file://relative/path as go-getter accepts it
    const p = bare.startsWith('file:///') ? fileURLToPath(bare) : decodeURIComponent(bare.slice('file://'.length));
    parsed = { kind: 'local', path: p, relative: !path.isAbsolute(p) };
  } else if (scheme !== undefined) {
    throw unsupported(scheme, sourceIn);
  } else {
    if (forced === 'http' || forced === 'https') throw new Error(`invalid artifact URL ${JSON.stringify(source)}`);
    const host = HOST_GETTERS.find(([re]) => re.test(source));
    if (host && forced !== 'file') throw unsupported(host[1], sourceIn);
    const q = source.indexOf('?');
    const bare = q >= 0 ? source.slice(0, q) : source;
    if (q >= 0) for (const [k, v] of new URLSearchParams(source.slice(q + 1))) params.append(k, v);
    parsed = { kind: 'local', path: bare, relative: !path.isAbsolute(bare) };
  }

  for (const [k, v] of Object.entries(options)) params.set(k, v);
  const take = (k: string): string | undefined => {
    const v = params.get(k) ?? undefined;
    params.delete(k);
    return v;
  };
  const checksumText = take('checksum');
  const archive = take('archive');
  const filename = take('filename');
  let namePath: string;
  if (parsed.kind === 'http') {
    // What remains of the query goes to the server, as go-getter sends it.
    parsed.url.search = params.toString();
    namePath = decodeURIComponent(parsed.url.pathname);
  } else {
    namePath = parsed.path;
  }
  return { source: parsed, checksum: checksumText ? parseChecksum(checksumText) : undefined, archive: archive || undefined, filename: filename || undefined, namePath };
}
