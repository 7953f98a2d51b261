import { describe, it, expect } from 'vitest';
import { PassThrough } from 'node:stream';
import { createIo, type Io } from '../../src/cli/io.js';
import { formatDuration, formatTable, goValue, renderList, renderSecret, renderTable } from '../../src/cli/output/format.js';
import { UsageError } from '../../src/shared/errors.js';
import { useColours } from '../../src/cli/output/colour.js';

/** Runs `body` with the colours `io` calls for, as src/main.ts sets them around a command. */
async function withColours<T>(io: Io, body: () => Promise<T> | T): Promise<T> {
  const restore = await useColours(io);
  try {
    return await body();
  } finally {
    restore();
  }
}

function capture(opts: { tty?: boolean; forceColor?: boolean } = {}): { io: Io; stdout: () => string; stderr: () => string } {
  const stdout = Object.assign(new PassThrough(), { isTTY: opts.tty });
  const stderr = new PassThrough();
  const io = createIo({ stdin: new PassThrough(), stdout, stderr }, {}, { forceColor: opts.forceColor });
  let out = '';
  let err = '';
  return {
    io,
    stdout: () => (out += (stdout.read() as Buffer | null)?.toString('utf8') ?? ''),
    stderr: () => (err += (stderr.read() as Buffer | null)?.toString('utf8') ?? ''),
  };
}

describe('formatDuration', () => {
  it('prints Go durations with zero units trimmed, as Vault does', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(60)).toBe('1m');
    expect(formatDuration(90)).toBe('1m30s');
    expect(formatDuration(3600)).toBe('1h');
    expect(formatDuration(5400)).toBe('1h30m');
    expect(formatDuration(3601)).toBe('1h1s');
    expect(formatDuration(3661)).toBe('1h1m1s');
    expect(formatDuration(768 * 3600)).toBe('768h');
    expect(formatDuration(0.5)).toBe('500ms');
    expect(formatDuration(1.5)).toBe('1.5s');
    expect(formatDuration(-90)).toBe('-1m30s');
  });
});

describe('goValue', () => {
  it("formats like Go's %v", () => {
    expect(goValue(['a', 'b', 'c'])).toBe('[a b c]');
    expect(goValue({ k2: 'v2', k: 'v' })).toBe('map[k:v k2:v2]');
    expect(goValue({ a: [1, 2], b: { c: true } })).toBe('map[a:[1 2] b:map[c:true]]');
    expect(goValue(null)).toBe('<nil>');
    expect(goValue([])).toBe('[]');
    expect(goValue(42)).toBe('42');
  });

  it('sorts map keys in byte order, not locale order', () => {
    expect(goValue({ b: 1, B: 2, a: 3 })).toBe('map[B:2 a:3 b:1]');
  });
});

describe('renderSecret: table', () => {
  it('prints sorted keys in an aligned Key/Value table', async () => {
    const c = capture();
    await renderSecret(c.io, { data: { zeta: 'z', alpha: 'a', mid_key: 3 } }, { format: 'table' });
    expect(c.stdout()).toBe(['Key        Value', '---        -----', 'alpha      a', 'mid_key    3', 'zeta       z', ''].join('\n'));
    expect(c.stderr()).toBe('');
  });

  it('renders nested values compactly and empty strings as n/a', async () => {
    const c = capture();
    await renderSecret(c.io, { data: { list: ['a', 'b'], map: { y: 2, x: 1 }, empty: '', nil: null } }, { format: 'table' });
    const out = c.stdout();
    expect(out).toContain('list     [a b]\n');
    expect(out).toContain('map      map[x:1 y:2]\n');
    expect(out).toContain('empty    n/a\n');
    expect(out).toContain('nil      <nil>\n');
  });

  it('prints TTL-like numeric fields as durations', async () => {
    const c = capture();
    await renderSecret(c.io, { data: { token_ttl: 2764800, period: 0, max_ttl: '3600', ttl_note: 60, name: 60 } }, { format: 'table' });
    const out = c.stdout();
    expect(out).toMatch(/^token_ttl\s+768h$/m);
    expect(out).toMatch(/^period\s+0s$/m);
    expect(out).toMatch(/^max_ttl\s+1h$/m);
    expect(out).toMatch(/^ttl_note\s+60$/m);
    expect(out).toMatch(/^name\s+60$/m);
  });

  it('prints warnings to stderr before the table', async () => {
    const c = capture();
    await renderSecret(c.io, { data: { a: 'b' }, warnings: ['first thing', 'second thing'] }, { format: 'table' });
    expect(c.stderr()).toBe('WARNING! The following warnings were returned from the server:\n\n  * first thing\n\n  * second thing\n\n');
    expect(c.stdout()).not.toContain('WARNING');
  });

  it('colours warnings only when colour is on', async () => {
    const plain = capture();
    await withColours(plain.io, () => renderSecret(plain.io, { warnings: ['w'] }, { format: 'table' }));
    expect(plain.stderr()).not.toContain('\x1b[');
    const coloured = capture({ forceColor: true });
    await withColours(coloured.io, () => renderSecret(coloured.io, { warnings: ['w'] }, { format: 'table' }));
    expect(coloured.stderr()).toContain('\x1b[33mWARNING!');
  });

  it('makes table headers bold while the command has colour on stdout, and only then', async () => {
    const coloured = capture({ forceColor: true });
    const text = await withColours(coloured.io, () => formatTable(['Name', 'Status'], [['web', 'running']]));
    expect(text).toBe('\x1b[1mName\x1b[22m  \x1b[1mStatus\x1b[22m\nweb   running\n');
    expect(formatTable(['Name', 'Status'], [['web', 'running']])).toBe('Name  Status\nweb   running\n');
    const dashes = await withColours(coloured.io, () => formatTable(['Key', 'Value'], [['a', 'b']], { dashes: true }));
    expect(dashes).toBe('\x1b[1mKey\x1b[22m    \x1b[1mValue\x1b[22m\n---    -----\na      b\n');
  });

  it('prints nothing for an empty response', async () => {
    const c = capture();
    await renderSecret(c.io, { data: null }, { format: 'table' });
    await renderSecret(c.io, { data: {} }, { format: 'table' });
    expect(c.stdout()).toBe('');
  });

  it('prints the token table for an auth response', async () => {
    const c = capture();
    await renderSecret(
      c.io,
      {
        auth: {
          client_token: 'hvs.abc',
          accessor: 'acc1',
          lease_duration: 2764800,
          renewable: true,
          token_policies: ['default', 'dev'],
          identity_policies: [],
          policies: ['default', 'dev'],
          metadata: { user: 'jo', role: 'r1' },
        },
      },
      { format: 'table' },
    );
    expect(c.stdout()).toBe(
      [
        'Key                  Value',
        '---                  -----',
        'token                hvs.abc',
        'token_accessor       acc1',
        'token_duration       768h',
        'token_renewable      true',
        'token_policies       ["default" "dev"]',
        'identity_policies    []',
        'policies             ["default" "dev"]',
        'token_meta_role      r1',
        'token_meta_user      jo',
        '',
      ].join('\n'),
    );
  });

  it('prints ∞ for a token that never expires', async () => {
    const c = capture();
    await renderSecret(c.io, { auth: { client_token: 'root', lease_duration: 0, policies: ['root'] } }, { format: 'table' });
    expect(c.stdout()).toMatch(/^token_duration\s+∞$/m);
  });

  it('prints lease information before the data', async () => {
    const c = capture();
    await renderSecret(c.io, { lease_id: 'l/1', lease_duration: 60, renewable: false, data: { a: 'b' } }, { format: 'table' });
    expect(c.stdout()).toBe(['Key                Value', '---                -----', 'lease_id           l/1', 'lease_duration     1m', 'lease_renewable    false', 'a                  b', ''].join('\n'));
    const d = capture();
    await renderSecret(d.io, { lease_duration: 3600, data: { a: 'b' } }, { format: 'table' });
    expect(d.stdout()).toMatch(/^refresh_interval\s+1h$/m);
  });
});

describe('renderSecret: json and yaml', () => {
  const secret = { request_id: 'r1', data: { b: 1, a: ['x'] }, warnings: ['careful'], auth: null };

  it('prints the whole response as pretty JSON with a trailing newline', async () => {
    const c = capture();
    await renderSecret(c.io, secret, { format: 'json' });
    expect(c.stdout()).toBe(`${JSON.stringify(secret, null, 2)}\n`);
    expect(c.stderr()).toBe('');
  });

  it('prints the whole response as YAML', async () => {
    const c = capture();
    await renderSecret(c.io, secret, { format: 'yaml' });
    expect(c.stdout()).toBe(['request_id: r1', 'data:', '  b: 1', '  a:', '    - x', 'warnings:', '  - careful', 'auth: null', ''].join('\n'));
  });
});

describe('renderSecret: -field', () => {
  const login = {
    data: { extra: 'e', nested: { k: 'v' } },
    auth: { client_token: 'hvs.tok', accessor: 'acc', lease_duration: 60, renewable: false, policies: ['a', 'b'], metadata: { role: 'r' } },
  };

  it('prints a string value raw, without a newline when stdout is not a terminal', async () => {
    const c = capture();
    await renderSecret(c.io, { data: { password: 'p"w' } }, { format: 'table', field: 'password' });
    expect(c.stdout()).toBe('p"w');
  });

  it('adds a newline on a terminal', async () => {
    const c = capture({ tty: true });
    await renderSecret(c.io, { data: { password: 'pw' } }, { format: 'table', field: 'password' });
    expect(c.stdout()).toBe('pw\n');
  });

  it('prints objects as JSON and scalars as text', async () => {
    const c = capture();
    await renderSecret(c.io, login, { format: 'table', field: 'nested' });
    expect(c.stdout()).toBe('{"k":"v"}');
    const d = capture();
    await renderSecret(d.io, { data: { n: 5, ok: false } }, { format: 'table', field: 'ok' });
    expect(d.stdout()).toBe('false');
  });

  it('wins over -format', async () => {
    const c = capture();
    await renderSecret(c.io, { data: { a: 'x' } }, { format: 'json', field: 'a' });
    expect(c.stdout()).toBe('x');
  });

  it('maps token fields to the auth block', async () => {
    const cases: Array<[string, string]> = [
      ['token', 'hvs.tok'],
      ['token_accessor', 'acc'],
      ['token_duration', '60'],
      ['token_renewable', 'false'],
      ['policies', '["a","b"]'],
      ['token_meta_role', 'r'],
      ['extra', 'e'],
    ];
    for (const [field, expected] of cases) {
      const c = capture();
      await renderSecret(c.io, login, { format: 'table', field });
      expect(c.stdout(), field).toBe(expected);
    }
  });

  it('throws a UsageError for a missing field', async () => {
    const c = capture();
    await expect(renderSecret(c.io, login, { format: 'table', field: 'nope' })).rejects.toThrow(UsageError);
    await expect(renderSecret(c.io, { data: { a: null } }, { format: 'table', field: 'a' })).rejects.toThrow('Field "a" not present in secret');
    await expect(renderSecret(c.io, { data: { a: 1 } }, { format: 'table', field: 'token' })).rejects.toThrow('Field "token" not present in secret');
    expect(c.stdout()).toBe('');
  });
});

describe('renderList', () => {
  it('prints Keys then one key per line', async () => {
    const c = capture();
    await renderList(c.io, ['a', 'b/'], { format: 'table' });
    expect(c.stdout()).toBe('Keys\n----\na\nb/\n');
  });

  it('prints a JSON array', async () => {
    const c = capture();
    await renderList(c.io, ['a', 'b/'], { format: 'json' });
    expect(c.stdout()).toBe('[\n  "a",\n  "b/"\n]\n');
  });

  it('prints a YAML list', async () => {
    const c = capture();
    await renderList(c.io, ['a', 'b/'], { format: 'yaml' });
    expect(c.stdout()).toBe('- a\n- b/\n');
  });
});

describe('renderTable', () => {
  it('aligns columns with two spaces and no separator, Nomad style', () => {
    const c = capture();
    renderTable(c.io, ['ID', 'Type', 'Priority'], [
      ['example', 'service', '50'],
      ['b', 'batch', '100'],
    ]);
    expect(c.stdout()).toBe('ID       Type     Priority\nexample  service  50\nb        batch    100\n');
  });

  it('adds a dashes line and four-space gaps in Vault style', () => {
    const c = capture();
    renderTable(c.io, ['Path', 'Type', 'Description'], [['token/', 'token', 'token based credentials'], ['cloud/', 'cloud', '']], { dashes: true });
    expect(c.stdout()).toBe(
      ['Path      Type     Description', '----      ----     -----------', 'token/    token    token based credentials', 'cloud/    cloud    n/a', ''].join('\n'),
    );
  });

  it('fills empty cells with <none> in Nomad style, or the given text', () => {
    expect(formatTable(['A', 'B'], [['', 'x']])).toBe('A       B\n<none>  x\n');
    expect(formatTable(['A', 'B'], [['x']], { empty: '' })).toBe('A  B\nx\n');
  });

  it('does not pad the last column and ignores colour codes for widths', () => {
    const text = formatTable(['Name', 'Status'], [['\x1b[32mok\x1b[0m', 'running'], ['longer', 'dead']], { gap: 1 });
    expect(text).toBe('Name   Status\n\x1b[32mok\x1b[0m     running\nlonger dead\n');
  });

  it('prints only the headers when there are no rows', () => {
    expect(formatTable(['ID', 'Status'], [])).toBe('ID  Status\n');
  });
});
