/**
 * The names of a data dir's keyring file: in the clear, or sealed by an external key (keyring-file.ts).
 * A module of its own so that the CLI can tell a server's data dir without loading the keyring code.
 */
export const PLAIN_KEYRING = 'keyring.json';
export const SEALED_KEYRING = 'keyring.sealed';
export const KEYRING_FILES = [PLAIN_KEYRING, SEALED_KEYRING] as const;
