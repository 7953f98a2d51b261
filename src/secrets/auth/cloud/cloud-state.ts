/**
 * What one server's cloud auth method keeps between requests, for every cloud mount of that server:
 * built by createCloudMethod (backend.ts), once per server, and reached by the paths it builds. Nothing
 * here is the store's truth. What derives from stored records is checked against the index of the table
 * it came from on every use (mount-storage.ts), so a write by another server process sharing the store
 * is seen at the next request; the rest is a function of its key (a document's bytes, a PEM) or the
 * server's own work (the tidies and rotations it runs).
 */
import { createCheckMemos, type CheckMemos } from './login/document-check.js';
import { createMountProviders, type MountProviders } from './mount-provider.js';
import type { Rotations } from './path-config-rotate-root.js';
import { createTidies, type Tidies } from './tidy.js';
import { createFullArnMemory, type FullArnMemory } from './login/principal-match.js';
import { createMountTrust, type MountTrust } from './login/trusted-certificates.js';
import { createVerifiedDocuments, type VerifiedDocuments } from './login/verified-documents.js';

export interface CloudState {
  /** each mount's provider clients, built again when the configuration table moved */
  providers: MountProviders;
  /** principals' full ARNs, dropped when the configuration or role table moved */
  fullArns: FullArnMemory;
  /** each mount's registered certificates, read again when the certificate table moved */
  trust: MountTrust;
  /** documents that verified, by a hash of the document and the trust it verified under */
  verified: VerifiedDocuments;
  /** what signature checks keep between logins: parsed certificates and decoded elements */
  checks: CheckMemos;
  /** the tidies this server runs */
  tidies: Tidies;
  /** the rotate-root calls this server runs */
  rotations: Rotations;
}

export function createCloudState(): CloudState {
  return {
    providers: createMountProviders(),
    fullArns: createFullArnMemory(),
    trust: createMountTrust(),
    verified: createVerifiedDocuments(),
    checks: createCheckMemos(),
    tidies: createTidies(),
    rotations: new Map(),
  };
}
