/**
 * The external seal key: the keyring sealed with it in the data dir, the key file made on first start,
 * the refusals (no key, another key, a key file missing or inside the data dir, an unreadable key), and
 * the move of an in-directory keyring to the key.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Seal } from '../../src/storage/seal.js';

let tmp: string;
let dataDir: string;
let keyFile: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-seal-key-'));
  dataDir = path.join(tmp, 'data');
  keyFile = path.join(tmp, 'seal.key');
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const randomKey = () => crypto.randomBytes(32).toString('base64');
const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** Whether any file under `dir` holds `needle`. */
function anyFileHolds(dir: string, needle: Buffer): boolean {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .some((e) => fs.readFileSync(path.join(e.parentPath, e.name)).includes(needle));
}

describe('a key file', () => {
  it('is created 0600 with a random 32-byte key on first start; the keyring is sealed with it, and reopens', async () => {
    const first = await Seal.open(dataDir, { file: keyFile });
    expect(mode(keyFile)).toBe(0o600);
    const key = Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'base64');
    expect(key).toHaveLength(32);
    expect(fs.readdirSync(dataDir)).toEqual(['keyring.sealed']);
    expect(mode(path.join(dataDir, 'keyring.sealed'))).toBe(0o600);
    expect(first.keyLocation).toBe(`seal key file ${keyFile}`);
    expect(first.movedToExternalKey).toBe(false);

    const sealed = first.encrypt('persisted', 'ctx');
    const again = await Seal.open(dataDir, { file: keyFile });
    expect(again.decrypt(sealed, 'ctx')).toBe('persisted');
    expect(again.hashToken('svc.t')).toBe(first.hashToken('svc.t'));
    // The key file is the same one: a second start does not make a new key.
    expect(Buffer.from(fs.readFileSync(keyFile, 'utf8').trim(), 'base64').equals(key)).toBe(true);
  });

  it('concurrent first starts agree on one key and one keyring', async () => {
    const seals = await Promise.all(Array.from({ length: 6 }, () => Seal.open(dataDir, { file: keyFile })));
    const sealed = seals[0].encrypt('x', 'c');
    for (const s of seals) expect(s.decrypt(sealed, 'c')).toBe('x');
    expect(fs.readdirSync(dataDir)).toEqual(['keyring.sealed']);
    expect(fs.readdirSync(tmp).sort()).toEqual(['data', 'seal.key']);
  });

  it('that went missing is not replaced: the start is refused naming the file', async () => {
    await Seal.open(dataDir, { file: keyFile });
    fs.rmSync(keyFile);
    await expect(Seal.open(dataDir, { file: keyFile })).rejects.toThrow(
      `seal key file ${keyFile} does not exist, and data directory ${dataDir} is sealed with an external key: restore that file (a new key cannot open the directory)`,
    );
    expect(fs.existsSync(keyFile)).toBe(false);
  });

  it('readable by group or others is refused', async () => {
    await Seal.open(dataDir, { file: keyFile });
    fs.chmodSync(keyFile, 0o640);
    await expect(Seal.open(dataDir, { file: keyFile })).rejects.toThrow(`seal key file ${keyFile} must not be readable by group or others (mode 0640); run chmod 600 ${keyFile}`);
  });

  it('that does not hold a 32-byte base64 key is refused without showing its content', async () => {
    fs.writeFileSync(keyFile, 'c2hvcnQta2V5\n', { mode: 0o600 });
    const err = await Seal.open(dataDir, { file: keyFile }).catch((e: Error) => e);
    expect(String(err)).toContain(`seal key file ${keyFile} must hold the base64 of 32 bytes`);
    expect(String(err)).not.toContain('c2hvcnQta2V5');
    expect(fs.existsSync(path.join(dataDir, 'keyring.sealed'))).toBe(false);
  });

  it('inside the data directory is refused: a copy of the directory would carry it', async () => {
    const inside = path.join(dataDir, 'keys', 'seal.key');
    await expect(Seal.open(dataDir, { file: inside })).rejects.toThrow(`the seal key file ${inside} is inside the data directory ${dataDir}`);
    // A sibling whose name starts with the data dir's is outside it.
    const sibling = `${dataDir}-keys`;
    fs.mkdirSync(sibling);
    await expect(Seal.open(dataDir, { file: path.join(sibling, 'seal.key') })).resolves.toBeDefined();
  });

  it('in a directory that does not exist is an error naming it', async () => {
    const nowhere = path.join(tmp, 'no-such-dir', 'seal.key');
    await expect(Seal.open(dataDir, { file: nowhere })).rejects.toThrow(`cannot create seal key file ${nowhere}: no such file or directory`);
  });
});

describe('SVC_SEAL_KEY', () => {
  it('seals the keyring with the key it holds', async () => {
    const key = randomKey();
    const first = await Seal.open(dataDir, { env: key });
    expect(first.keyLocation).toBe('SVC_SEAL_KEY');
    expect(fs.readdirSync(dataDir)).toEqual(['keyring.sealed']);
    const sealed = first.encrypt('v', 'c');
    expect((await Seal.open(dataDir, { env: key })).decrypt(sealed, 'c')).toBe('v');
  });

  it('must be the base64 of 32 bytes; the message does not show it', async () => {
    const hex = crypto.randomBytes(32).toString('hex');
    for (const bad of [hex, crypto.randomBytes(16).toString('base64'), 'not base64!']) {
      const err = await Seal.open(dataDir, { env: bad }).catch((e: Error) => e);
      expect(String(err)).toContain('SVC_SEAL_KEY must be the base64 of 32 bytes');
      expect(String(err)).not.toContain(bad);
    }
  });
});

describe('a data directory sealed with an external key', () => {
  it('does not open with another key, and is left as it was', async () => {
    await Seal.open(dataDir, { env: randomKey() });
    const before = fs.readFileSync(path.join(dataDir, 'keyring.sealed'));
    await expect(Seal.open(dataDir, { env: randomKey() })).rejects.toThrow(
      `the seal key does not open this data directory (${dataDir}): its keyring was sealed with another key than the one in SVC_SEAL_KEY`,
    );
    fs.writeFileSync(keyFile, `${randomKey()}\n`, { mode: 0o600 });
    await expect(Seal.open(dataDir, { file: keyFile })).rejects.toThrow(`the seal key does not open this data directory (${dataDir}): its keyring was sealed with another key than the one in seal key file ${keyFile}`);
    expect(fs.readFileSync(path.join(dataDir, 'keyring.sealed')).equals(before)).toBe(true);
  });

  it('does not open without a key, and gets no in-directory keyring', async () => {
    await Seal.open(dataDir, { file: keyFile });
    await expect(Seal.open(dataDir)).rejects.toThrow(
      `data directory ${dataDir} is sealed with an external key (it holds keyring.sealed), and no seal key was given: pass -seal-key-file, set seal { key_file } in the config file, or set SVC_SEAL_KEY`,
    );
    expect(fs.readdirSync(dataDir)).toEqual(['keyring.sealed']);
  });

  it('holds neither the data key nor the token salt in any form', async () => {
    // Made in the clear first, so the test knows the keys; then moved to the external key.
    await Seal.open(dataDir);
    const plain = JSON.parse(fs.readFileSync(path.join(dataDir, 'keyring.json'), 'utf8'));
    await Seal.open(dataDir, { file: keyFile });
    for (const b64 of [plain.keys[plain.activeKeyId], plain.tokenSalt]) {
      expect(anyFileHolds(dataDir, Buffer.from(b64))).toBe(false);
      expect(anyFileHolds(dataDir, Buffer.from(b64, 'base64'))).toBe(false);
    }
  });
});

describe('moving an in-directory keyring to an external key', () => {
  it('seals the same keys with the external key and removes keyring.json; values sealed before still open', async () => {
    const before = await Seal.open(dataDir);
    const sealed = before.encrypt('older secret', 'ctx');
    const hash = before.hashToken('svc.token');

    const moved = await Seal.open(dataDir, { file: keyFile });
    expect(moved.movedToExternalKey).toBe(true);
    expect(fs.readdirSync(dataDir)).toEqual(['keyring.sealed']);
    expect(moved.decrypt(sealed, 'ctx')).toBe('older secret');
    expect(moved.hashToken('svc.token')).toBe(hash);
    expect(moved.keyId).toBe(before.keyId);

    const later = await Seal.open(dataDir, { file: keyFile });
    expect(later.movedToExternalKey).toBe(false);
    expect(later.decrypt(sealed, 'ctx')).toBe('older secret');
  });

  it('a move interrupted after keyring.sealed was written is finished by the next start', async () => {
    await Seal.open(dataDir);
    const plainFile = path.join(dataDir, 'keyring.json');
    const plainText = fs.readFileSync(plainFile);
    const moved = await Seal.open(dataDir, { file: keyFile });
    // As if the start had stopped before removing keyring.json.
    fs.writeFileSync(plainFile, plainText, { mode: 0o600 });
    const next = await Seal.open(dataDir, { file: keyFile });
    expect(next.movedToExternalKey).toBe(true);
    expect(next.keyId).toBe(moved.keyId);
    expect(fs.readdirSync(dataDir)).toEqual(['keyring.sealed']);
  });

  it('a keyring.json with other keys beside keyring.sealed is refused and both are kept', async () => {
    await Seal.open(dataDir, { file: keyFile });
    const other = path.join(tmp, 'other');
    await Seal.open(other);
    fs.copyFileSync(path.join(other, 'keyring.json'), path.join(dataDir, 'keyring.json'));
    await expect(Seal.open(dataDir, { file: keyFile })).rejects.toThrow(`data directory ${dataDir} holds both keyring.json and keyring.sealed, with different keys`);
    expect(fs.readdirSync(dataDir).sort()).toEqual(['keyring.json', 'keyring.sealed']);
  });
});
