import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';

interface NamespaceStub {
  Name: string;
  Description?: string;
}

export default defineCommand({
  path: ['namespace', 'list'],
  synopsis: 'List namespaces',
  usage: 'svc namespace list [options]',
  description: 'Lists the namespaces the token can access, with their descriptions.',
  examples: [
    { command: 'svc namespace list' },
    { command: 'svc namespace list -json', description: 'Print the namespaces as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  async run(ctx) {
    const { body } = await clientFor(ctx).scheduler<NamespaceStub[]>('GET', '/v1/namespaces');
    const namespaces = [...(body ?? [])].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
    if (ctx.flags.json === true) {
      ctx.io.out(JSON.stringify(namespaces, null, 4));
      return 0;
    }
    if (namespaces.length === 0) {
      ctx.io.out('No namespaces found');
      return 0;
    }
    const { renderTable } = await import('../../output/format.js');
    renderTable(ctx.io, ['Name', 'Description'], namespaces.map((n) => [n.Name, n.Description ?? '']));
    return 0;
  },
});
