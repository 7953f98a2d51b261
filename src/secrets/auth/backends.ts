/** Auth method types that can be mounted with `sys/auth/:path`, besides `token`. */
import type { Backend } from '../../server/framework/path.js';
import { cloudBackend } from './cloud/backend.js';

export const authMethodBackends: Record<string, Backend> = {
  cloud: cloudBackend,
};
