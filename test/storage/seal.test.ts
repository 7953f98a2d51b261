import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Seal } from '../../src/storage/seal.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-seal-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('Seal: encryption', () => {
  it('round-trips, including empty and non-ASCII text', async () => {
    const seal = await Seal.open(tmp);
    for (const plain of ['s3cr3t', '', 'pässwörd 🔑', 'x'.repeat(100_000)]) {
      const sealed = seal.encrypt(plain, 'kv/secret/app#1');
      expect(seal.decrypt(sealed, 'kv/secret/app#1')).toBe(plain);
    }
  });

  it('produces a versioned string naming the key, never containing the plaintext', async () => {
    const seal = await Seal.open(tmp);
    const sealed = seal.encrypt('hunter2', 'ctx');
    expect(sealed).toMatch(new RegExp(`^v1:${seal.keyId}:[A-Za-z0-9+/]+=*$`));
    expect(sealed).not.toContain('hunter2');
    expect(Buffer.from(sealed.split(':')[2], 'base64').toString('latin1')).not.toContain('hunter2');
    // A fresh IV every time.
    expect(seal.encrypt('hunter2', 'ctx')).not.toBe(sealed);
  });

  it('refuses to decrypt under another context (a value moved to another record)', async () => {
    const seal = await Seal.open(tmp);
    const sealed = seal.encrypt('s3cr3t', 'kv/secret/a#1');
    expect(() => seal.decrypt(sealed, 'kv/secret/b#1')).toThrow(/failed authentication/);
  });

  it('detects tampering with the ciphertext, the tag or the IV', async () => {
    const seal = await Seal.open(tmp);
    const sealed = seal.encrypt('s3cr3t value', 'ctx');
    const [v, id, b64] = sealed.split(':');
    const blob = Buffer.from(b64, 'base64');
    for (const at of [0, 12, 28, blob.length - 1]) {
      const bad = Buffer.from(blob);
      bad[at] ^= 0x01;
      expect(() => seal.decrypt(`${v}:${id}:${bad.toString('base64')}`, 'ctx'), `byte ${at}`).toThrow(/failed authentication/);
    }
    expect(() => seal.decrypt(`${v}:${id}:${blob.subarray(0, 20).toString('base64')}`, 'ctx')).toThrow(/truncated/);
    expect(() => seal.decrypt('plain text', 'ctx')).toThrow(/not a sealed value/);
    expect(() => seal.decrypt(`v9:${id}:${b64}`, 'ctx')).toThrow(/unknown sealed format/);
  });

  it('error messages never contain the value or the context', async () => {
    const seal = await Seal.open(tmp);
    const sealed = seal.encrypt('TOPSECRET', 'SECRETCTX');
    try {
      seal.decrypt(sealed, 'OTHERCTX');
      expect.unreachable();
    } catch (err) {
      expect(String(err)).not.toMatch(/TOPSECRET|SECRETCTX|OTHERCTX/);
      expect(String(err)).not.toContain(sealed.split(':')[2]);
    }
  });

  it('a value sealed by one keyring does not open with another', async () => {
    const a = await Seal.open(path.join(tmp, 'a'));
    const b = await Seal.open(path.join(tmp, 'b'));
    expect(() => b.decrypt(a.encrypt('x', 'ctx'), 'ctx')).toThrow(/not in this server's keyring/);
    expect(() => Seal.memory().decrypt(a.encrypt('x', 'ctx'), 'ctx')).toThrow(/not in this server's keyring/);
  });

  it('memory seals work and are independent of each other', () => {
    const m = Seal.memory();
    expect(m.decrypt(m.encrypt('v', 'c'), 'c')).toBe('v');
    expect(Seal.memory().keyId).not.toBe(m.keyId);
  });
});

describe('Seal: token hashes', () => {
  it('are deterministic for one salt, differ per token and per salt, and are hex SHA-256 sized', async () => {
    const a = await Seal.open(path.join(tmp, 'a'));
    const a2 = await Seal.open(path.join(tmp, 'a'));
    const b = await Seal.open(path.join(tmp, 'b'));
    const h = a.hashToken('hvs.token');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hashToken('hvs.token')).toBe(h);
    expect(a2.hashToken('hvs.token')).toBe(h);
    expect(a.hashToken('hvs.other')).not.toBe(h);
    expect(b.hashToken('hvs.token')).not.toBe(h);
    expect(Seal.memory().hashToken('hvs.token')).not.toBe(h);
    expect(h).not.toContain('token');
  });
});

describe('Seal: keyring file', () => {
  it('is created 0600 in a 0700 dir, and reused on the next open', async () => {
    const dir = path.join(tmp, 'data');
    const first = await Seal.open(dir);
    const file = path.join(dir, 'keyring.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(raw.version).toBe(1);
    expect(Buffer.from(raw.keys[raw.activeKeyId], 'base64')).toHaveLength(32);
    expect(Buffer.from(raw.tokenSalt, 'base64')).toHaveLength(32);
    // No temp files left behind.
    expect(fs.readdirSync(dir)).toEqual(['keyring.json']);

    const sealed = first.encrypt('persisted', 'ctx');
    const second = await Seal.open(dir);
    expect(second.keyId).toBe(first.keyId);
    expect(second.decrypt(sealed, 'ctx')).toBe('persisted');
    expect(fs.readFileSync(file, 'utf8')).toBe(JSON.stringify(raw, null, 2) + '\n');
  });

  it('concurrent first opens agree on one keyring', async () => {
    const dir = path.join(tmp, 'race');
    const seals = await Promise.all(Array.from({ length: 8 }, () => Seal.open(dir)));
    expect(new Set(seals.map((s) => s.keyId)).size).toBe(1);
    const sealed = seals[0].encrypt('x', 'c');
    for (const s of seals) expect(s.decrypt(sealed, 'c')).toBe('x');
    expect(fs.readdirSync(dir)).toEqual(['keyring.json']);
  });

  it.each([0o644, 0o640, 0o604])('refuses a keyring readable by group or others (mode %o)', async (mode) => {
    await Seal.open(tmp);
    const file = path.join(tmp, 'keyring.json');
    fs.chmodSync(file, mode);
    await expect(Seal.open(tmp)).rejects.toThrow(
      `keyring ${file} must not be readable by group or others (mode 0${mode.toString(8)}); run chmod 600 ${file}`,
    );
  });

  it('refuses a keyring writable by group', async () => {
    await Seal.open(tmp);
    const file = path.join(tmp, 'keyring.json');
    fs.chmodSync(file, 0o620);
    await expect(Seal.open(tmp)).rejects.toThrow(/must not be accessible by group or others \(mode 0620\); run chmod 600/);
  });

  it.each([
    ['not JSON', 'garbage{', /not valid JSON/],
    ['an array', '[]', /unsupported format version/],
    ['missing the salt', JSON.stringify({ version: 1, activeKeyId: 'k', keys: { k: Buffer.alloc(32).toString('base64') } }), /missing tokenSalt/],
    ['a short key', JSON.stringify({ version: 1, activeKeyId: 'k', keys: { k: 'AAAA' }, tokenSalt: Buffer.alloc(32).toString('base64') }), /keys.k must be 32 bytes/],
    ['an unknown active key', JSON.stringify({ version: 1, activeKeyId: 'x', keys: {}, tokenSalt: 'AAAA' }), /active key x is not in keys/],
  ])('refuses a keyring that is %s, without replacing it', async (_name, text, why) => {
    const file = path.join(tmp, 'keyring.json');
    fs.writeFileSync(file, text, { mode: 0o600 });
    await expect(Seal.open(tmp)).rejects.toThrow(why);
    await expect(Seal.open(tmp)).rejects.toThrow(new RegExp(`^keyring ${file} is corrupt`));
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a keyring path that is a directory', async () => {
    fs.mkdirSync(path.join(tmp, 'keyring.json'));
    await expect(Seal.open(tmp)).rejects.toThrow(/keyring .*keyring\.json/);
  });

  it('refuses a dir that is a regular file', async () => {
    const file = path.join(tmp, 'file');
    fs.writeFileSync(file, '');
    await expect(Seal.open(file)).rejects.toThrow(`cannot create keyring ${file}/keyring.json: ${file}: not a directory`);
  });
});
