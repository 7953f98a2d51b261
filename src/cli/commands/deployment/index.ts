/** Nomad's deployment commands: list, inspect, follow, fail, pause, resume and promote deployments. */
import type { CommandSpec } from '../../define.js';
import listCommand from './list.js';
import statusCommand from './status.js';
import failCommand from './fail.js';
import pauseCommand from './pause.js';
import resumeCommand from './resume.js';
import promoteCommand from './promote.js';

export const commands: CommandSpec[] = [listCommand, statusCommand, failCommand, pauseCommand, resumeCommand, promoteCommand];
