/** Flags shared by many commands, declared once; help prints them under their own headings. */
import type { FlagSpec } from '../define.js';
import { addressProblem } from '../address.js';

export const HTTP_FLAGS: FlagSpec[] = [
  {
    name: 'address',
    type: 'string',
    env: 'SVC_ADDR',
    upstreamEnv: { nomad: 'NOMAD_ADDR', vault: 'VAULT_ADDR' },
    default: 'http://127.0.0.1:4646',
    check: addressProblem,
    description: 'Address of the svc server.',
    group: 'HTTP Options',
  },
  {
    name: 'token',
    type: 'string',
    env: 'SVC_TOKEN',
    upstreamEnv: { nomad: 'NOMAD_TOKEN', vault: 'VAULT_TOKEN' },
    description: 'Token to authenticate with. When not given, the token file (~/.svc-token) written by `svc login` is used.',
    group: 'HTTP Options',
  },
  {
    name: 'namespace',
    type: 'string',
    env: 'SVC_NAMESPACE',
    upstreamEnv: { nomad: 'NOMAD_NAMESPACE', vault: 'VAULT_NAMESPACE' },
    description: 'The scheduler namespace to use.',
    group: 'HTTP Options',
    complete: 'namespace',
  },
  { name: 'region', type: 'string', env: 'SVC_REGION', upstreamEnv: { nomad: 'NOMAD_REGION' }, description: 'The scheduler region to use.', group: 'HTTP Options' },
  {
    name: 'ca-cert',
    type: 'string',
    env: 'SVC_CACERT',
    upstreamEnv: { nomad: 'NOMAD_CACERT', vault: 'VAULT_CACERT' },
    description: "PEM file of the CA certificate(s) the server's certificate must chain to, for https addresses. The default is Node's bundled list.",
    group: 'HTTP Options',
    complete: 'file',
  },
  {
    name: 'ca-path',
    type: 'string',
    env: 'SVC_CAPATH',
    upstreamEnv: { nomad: 'NOMAD_CAPATH', vault: 'VAULT_CAPATH' },
    description: 'Directory of PEM files of CA certificates, as -ca-cert but a directory; -ca-cert wins when both are given, as in Vault and Nomad.',
    group: 'HTTP Options',
    complete: 'dir',
  },
  { name: 'client-cert', type: 'string', env: 'SVC_CLIENT_CERT', upstreamEnv: { nomad: 'NOMAD_CLIENT_CERT', vault: 'VAULT_CLIENT_CERT' }, description: 'PEM file of a client certificate, for servers that require one. Needs -client-key.', group: 'HTTP Options', complete: 'file' },
  { name: 'client-key', type: 'string', env: 'SVC_CLIENT_KEY', upstreamEnv: { nomad: 'NOMAD_CLIENT_KEY', vault: 'VAULT_CLIENT_KEY' }, description: 'PEM file of the private key of -client-cert.', group: 'HTTP Options', complete: 'file' },
  { name: 'tls-server-name', type: 'string', env: 'SVC_TLS_SERVER_NAME', upstreamEnv: { nomad: 'NOMAD_TLS_SERVER_NAME', vault: 'VAULT_TLS_SERVER_NAME' }, description: "Name to send as SNI and check the server's certificate against, when the address holds another.", group: 'HTTP Options' },
  { name: 'tls-skip-verify', type: 'bool', env: 'SVC_SKIP_VERIFY', upstreamEnv: { nomad: 'NOMAD_SKIP_VERIFY', vault: 'VAULT_SKIP_VERIFY' }, description: "Do not verify the server's certificate. Insecure: for trying things only.", group: 'HTTP Options' },
  {
    name: 'output-curl-string',
    type: 'bool',
    description: "Print the command's first request as an equivalent curl command instead of sending it, and exit 0. The token is written as $(svc print token).",
    group: 'HTTP Options',
  },
  { name: 'no-color', type: 'bool', description: 'Disable colour in the output. NO_COLOR and SVC_CLI_NO_COLOR do the same.', group: 'HTTP Options' },
  { name: 'force-color', type: 'bool', description: 'Colour the output even when it is not a terminal.', group: 'HTTP Options' },
];

export const OUTPUT_FLAGS: FlagSpec[] = [
  {
    name: 'format',
    type: 'string',
    env: 'SVC_FORMAT',
    upstreamEnv: { vault: 'VAULT_FORMAT' },
    default: 'table',
    choices: ['table', 'json', 'yaml'],
    description: 'Print the output in the given format.',
    group: 'Output Options',
  },
  {
    name: 'field',
    type: 'string',
    description: 'Print only the value of the given field, raw: strings without quotes, anything else as JSON.',
    group: 'Output Options',
  },
];

/**
 * The scheduler commands that print data: Vault's -format and -field (src/cli/output/scheduler-output.ts
 * renders them) alongside Nomad's -json and -t.
 */
export const SCHEDULER_OUTPUT_FLAGS: FlagSpec[] = [
  ...OUTPUT_FLAGS.map((f) => (f.name === 'field' ? { ...f, description: `${f.description} Over a list, that field of every element, one per line.` } : f)),
  { name: 'json', type: 'bool', description: 'Print the output as JSON; the same as -format=json.', group: 'Output Options' },
  {
    name: 't',
    type: 'string',
    description: 'Format the output (the object -json prints) with a Go template. Cannot be combined with -format or -field.',
    group: 'Output Options',
  },
];

/**
 * The commands that may ask a question on a terminal (src/cli/prompt.ts): -non-interactive makes one
 * that would be needed an error instead, as it is when stdin or stdout is not a terminal.
 */
export const PROMPT_FLAGS: FlagSpec[] = [
  {
    name: 'non-interactive',
    type: 'bool',
    description: 'Never ask a question, even on a terminal: where one would be needed, fail with a message naming the flag or argument that answers it.',
    group: 'Prompt Options',
  },
];

/** The commands that may ask for a confirmation: -yes gives it in advance. */
export const CONFIRM_FLAGS: FlagSpec[] = [
  { name: 'yes', type: 'bool', description: 'Answer yes to every confirmation instead of asking.', group: 'Prompt Options' },
  ...PROMPT_FLAGS,
];

export const FLAG_SETS = {
  http: { title: 'HTTP Options', flags: HTTP_FLAGS },
  output: { title: 'Output Options', flags: OUTPUT_FLAGS },
  'scheduler-output': { title: 'Output Options', flags: SCHEDULER_OUTPUT_FLAGS },
  prompt: { title: 'Prompt Options', flags: PROMPT_FLAGS },
  confirm: { title: 'Prompt Options', flags: CONFIRM_FLAGS },
} as const;
