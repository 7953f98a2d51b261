import { defineCommand } from '../define.js';
import { VERSION } from '../../version.js';

export default defineCommand({
  path: ['version'],
  synopsis: 'Print the svc version',
  usage: 'svc version',
  description: 'Prints the version of this svc binary.',
  family: 'local',
  async run({ io }) {
    io.out(`svc v${VERSION}`);
  },
});
