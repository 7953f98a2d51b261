/**
 * The QueryMeta that Nomad's write responses embed (job register, deregister, scale, version tags): a
 * write sets only Index and leaves the rest at its zero values. The responses that embed WriteMeta
 * instead carry Index alone.
 */
export const writeQueryMeta = (index: number) => ({ Index: index, LastContact: 0, KnownLeader: false, NextToken: '' });
