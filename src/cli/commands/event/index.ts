/** The event stream's commands (a group Nomad's CLI lacks: it reads /v1/event/stream with curl). */
import { defineGroup, type CommandSpec } from '../../define.js';
import streamCommand from './stream.js';

export const eventGroup = defineGroup({
  path: ['event'],
  synopsis: 'Interact with the event stream',
  description: "The scheduler's event stream: a record of every change to jobs, evaluations, allocations, deployments and nodes, as Nomad's /v1/event/stream sends it.",
});

export const eventCommands: CommandSpec[] = [streamCommand];
