/**
 * The values shell completion asks the server for, through `svc __complete KIND [PREFIX]`. A command
 * declares a kind on an argument or flag (`complete: 'job'`), and so does a field schema of the server;
 * src/cli/complete-values.ts lists each kind with one API call.
 */
export const SERVER_KINDS = {
  policy: 'ACL policy names',
  namespace: 'scheduler namespaces',
  job: 'job IDs',
  alloc: 'allocation IDs',
  eval: 'evaluation IDs',
  deployment: 'deployment IDs',
  node: 'node IDs',
  service: 'service names',
  mount: 'auth mount paths, relative to auth/',
  'cloud-mount': 'the paths of the cloud auth mounts',
  accessor: 'auth mount accessors',
  entity: 'identity entity IDs',
  'entity-name': 'identity entity names',
  'entity-alias': 'identity entity alias IDs',
  role: 'the roles of the cloud mount -path names',
  certificate: 'the certificate names registered on that mount',
  'sts-account': 'the account IDs with an STS role on that mount',
  denylist: 'the deny-listed role tags of that mount',
  accesslist: 'the instance IDs on the access list of that mount',
  'secrets-path': 'secrets API paths, a segment at a time: auth/, identity/ and sys/ (without a server too), the auth mounts, and the paths their backends serve',
} as const;

export type ServerKind = keyof typeof SERVER_KINDS;

/** What completion offers for a value: file names, directory names, or values of a server kind. */
export type CompletionKind = 'file' | 'dir' | ServerKind;
