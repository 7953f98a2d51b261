/** What a task asks of a node, and the group's network, as their field tables declare them. */
import type { StructOf } from '../wire/job/fields.js';
import type { DEVICE, DNS, NETWORK, NUMA, PORT, RESOURCES } from '../wire/job/resources.js';

export type Port = StructOf<typeof PORT>;
export type DNSConfig = StructOf<typeof DNS>;
export type NetworkResource = StructOf<typeof NETWORK>;
export type RequestedDevice = StructOf<typeof DEVICE>;
export type NUMAResource = StructOf<typeof NUMA>;
export type Resources = StructOf<typeof RESOURCES>;
