/** The file in which ec2 logins keep the server's nonce for each server, mount and instance. */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NonceFileError, nonceFilePath, nonceKey, readNonce, readNonces, storeNonce } from '../../../src/cli/login-methods/nonce-file.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'svc-nonce-'));
  file = path.join(dir, 'nonces');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the nonce file', () => {
  it('is SVC_CLOUD_NONCE_FILE, else ~/.svc-cloud-nonce', () => {
    expect(nonceFilePath({ HOME: '/home/u', SVC_CLOUD_NONCE_FILE: '/etc/svc/nonces' })).toBe('/etc/svc/nonces');
    expect(nonceFilePath({ HOME: '/home/u' })).toBe('/home/u/.svc-cloud-nonce');
  });

  it('keys nonces by server address (without trailing slashes), mount and instance', () => {
    expect(nonceKey('http://127.0.0.1:4646/', 'cloud', 'i-0abc')).toBe('http://127.0.0.1:4646|cloud|i-0abc');
    expect(nonceKey('https://svc.example.com', 'cloud-east', 'i-0abc')).toBe('https://svc.example.com|cloud-east|i-0abc');
  });

  it('is created with mode 0600, whatever the umask, and holds a JSON object', async () => {
    // A umask that takes the owner's write bit away too.
    const old = process.umask(0o277);
    try {
      await storeNonce(file, 'a|cloud|i-1', 'n-1');
    } finally {
      process.umask(old);
    }
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ 'a|cloud|i-1': 'n-1' });
  });

  it('keeps every key, replaces a key\'s nonce, and leaves no temporary files', async () => {
    await storeNonce(file, 'http://a|cloud|i-1', 'n-1');
    await storeNonce(file, 'http://b|cloud|i-1', 'n-2');
    await storeNonce(file, 'http://a|cloud-east|i-1', 'n-3');
    await storeNonce(file, 'http://a|cloud|i-1', 'n-4');
    expect(await readNonces(file)).toEqual({ 'http://a|cloud|i-1': 'n-4', 'http://b|cloud|i-1': 'n-2', 'http://a|cloud-east|i-1': 'n-3' });
    expect(await readNonce(file, 'http://b|cloud|i-1')).toBe('n-2');
    expect(await readNonce(file, 'http://b|cloud|i-2')).toBeUndefined();
    expect(await readdir(dir)).toEqual(['nonces']);
  });

  it('resets a wider mode to 0600 when it is written again', async () => {
    await writeFile(file, '{}', { mode: 0o644 });
    await storeNonce(file, 'k', 'n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('reads as empty when it does not exist or is empty', async () => {
    expect(await readNonce(file, 'k')).toBeUndefined();
    await writeFile(file, '\n');
    expect(await readNonces(file)).toEqual({});
  });

  it('does not take keys from the object prototype for nonces', async () => {
    await storeNonce(file, 'k', 'n');
    expect(await readNonce(file, 'toString')).toBeUndefined();
  });

  it.each([
    ['not JSON', '{"http://a|cloud|i-1": "n-1"', /is corrupted \(.*JSON.*\)/],
    ['not an object', '["n-1"]', /is corrupted \(it does not hold a JSON object\)/],
    ['a value that is not a string', '{"k": 1}', /is corrupted \(the value of "k" is not a string\)/],
  ])('refuses a corrupted file (%s) with a clear error, and does not overwrite it', async (_what, content, message) => {
    await writeFile(file, content, { mode: 0o600 });
    const read = await readNonce(file, 'k').catch((e: unknown) => e);
    expect(read).toBeInstanceOf(NonceFileError);
    expect((read as Error).message).toMatch(message);
    expect((read as Error).message).toContain(file);
    expect((read as Error).message).toContain('nonce=');
    await expect(storeNonce(file, 'k', 'n')).rejects.toBeInstanceOf(NonceFileError);
    expect(await readFile(file, 'utf8')).toBe(content);
  });

  it('reports a file it cannot write, naming it', async () => {
    const inMissingDir = path.join(dir, 'missing', 'nonces');
    await expect(storeNonce(inMissingDir, 'k', 'n')).rejects.toThrow(new RegExp(`^Error writing the nonce file ${inMissingDir}: ENOENT`));
  });
});
