import { defineCommand } from '../../define.js';
import { SvcError } from '../../../shared/errors.js';
import { cloudEndpointFilePath, readCloudEndpointFile } from '../../cloud-endpoint-file.js';

export default defineCommand({
  path: ['print', 'cloud-endpoint'],
  synopsis: 'Print the metadata endpoint of the dev cloud simulator',
  usage: 'svc print cloud-endpoint',
  description:
    'Prints the metadata endpoint of the simulator of `svc server -dev -dev-cloud`, from the file it keeps ' +
    'beside the token file (~/.svc-cloud-endpoint) while it runs, for scripts.',
  examples: [{ command: 'export CLOUD_METADATA_ENDPOINT="$(svc print cloud-endpoint)"' }],
  exitCodes: { 0: 'printed', 1: 'no simulator runs' },
  family: 'local',
  async run(ctx) {
    const endpoint = readCloudEndpointFile(ctx.env);
    if (!endpoint) throw new SvcError(`no cloud simulator endpoint in ${cloudEndpointFilePath(ctx.env)}: start one with \`svc server -dev -dev-cloud\``);
    ctx.io.out(endpoint);
    return 0;
  },
});
