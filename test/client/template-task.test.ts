import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExecDriver } from '../../src/client/drivers/exec.js';
import { MS, SEC, allDead, events, lastEvent, makeAlloc, rawTask, startRunner, taskState, tempDir } from './helpers.js';

const tmp = tempDir('svc-tmpl-');
afterAll(() => tmp.cleanup());

const allocDir = (id: string) => path.join(tmp.dir, id);
const execHealthy = (await new ExecDriver().fingerprint()).healthy;

function tmpl(dest: string, data: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { DestPath: dest, EmbeddedTmpl: data, ...extra };
}

describe('templates in a raw_exec task', () => {
  it('renders before the start: env = true variables reach the process, perms are applied, NOMAD_ variables and meta are readable', async () => {
    const alloc = makeAlloc({
      job: { Meta: { version: '1.2.3' } },
      tasks: [
        rawTask('app', 'echo "greeting=$GREETING port=$APP_PORT quoted=$QUOTED name=$OVERRIDDEN"; cat local/app.conf', {
          Env: { OVERRIDDEN: 'from-env-block' },
          Templates: [
            tmpl('secrets/app.env', '# generated\nGREETING=hello {{ env "NOMAD_TASK_NAME" }}\nAPP_PORT={{ 8000 | add 80 }}\nQUOTED="a b"\nOVERRIDDEN=from-template\n', { Envvars: true, Perms: '0600' }),
            tmpl('local/app.conf', 'version = "{{ env "NOMAD_META_version" }}"\n{{- range $i, $t := split "," "x,y" }}\ntag{{ $i }} = {{ $t }}{{ end }}\n', { Perms: '0640' }),
          ],
        }),
      ],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'app')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated']);
    expect(taskState(runner, 'app')).toMatchObject({ Failed: false });
    const out = readFileSync(path.join(allocDir(alloc.ID), 'alloc/logs/app.stdout.0'), 'utf8');
    expect(out).toBe('greeting=hello app port=8080 quoted=a b name=from-template\nversion = "1.2.3"\ntag0 = x\ntag1 = y\n');
    const dir = path.join(allocDir(alloc.ID), 'app');
    expect(statSync(path.join(dir, 'secrets/app.env')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, 'local/app.conf')).mode & 0o777).toBe(0o640);
  });

  it('reads `source` from the task directory, interpolates paths, and writes alloc/ into the shared directory', async () => {
    const alloc = makeAlloc({
      job: { Meta: { file: 'shared.txt' } },
      tasks: [
        rawTask('app', 'cat "$NOMAD_ALLOC_DIR/shared.txt"', {
          Artifacts: [{ GetterSource: path.join(tmp.dir, 'src.tpl'), GetterMode: 'file', RelativeDest: 'local/src.tpl' }],
          Templates: [
            { SourcePath: 'local/src.tpl', DestPath: 'alloc/${NOMAD_META_file}', LeftDelim: '<<', RightDelim: '>>' },
            // `file` reads inside the task's sandbox: relative, or the host path of NOMAD_TASK_DIR
            tmpl('local/copies.txt', '{{ file "local/src.tpl" | len }} {{ file (printf "%s/src.tpl" (env "NOMAD_TASK_DIR")) | len }}'),
          ],
        }),
      ],
    });
    writeFileSync(path.join(tmp.dir, 'src.tpl'), 'from source: << env "NOMAD_TASK_NAME" | toUpper >> {{ untouched }}\n');
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(taskState(runner, 'app').Failed).toBe(false);
    expect(readFileSync(path.join(allocDir(alloc.ID), 'alloc/shared.txt'), 'utf8')).toBe('from source: APP {{ untouched }}\n');
    expect(readFileSync(path.join(allocDir(alloc.ID), 'alloc/logs/app.stdout.0'), 'utf8')).toBe('from source: APP {{ untouched }}\n');
    expect(readFileSync(path.join(allocDir(alloc.ID), 'app/local/copies.txt'), 'utf8')).toBe('67 67');
  });

  it('fails the task, without starting it, when a template calls nomadVar: Task hook failed naming the function and the position', async () => {
    const alloc = makeAlloc({
      tasks: [rawTask('app', 'echo should-not-run', { Templates: [tmpl('local/creds.env', 'USER=admin\n{{ with nomadVar "nomad/jobs/app" }}PASS={{ .password }}{{ end }}\n', { Envvars: true })] })],
      group: { RestartPolicy: { Attempts: 3, Interval: 30 * 60 * SEC, Delay: 100 * MS, Mode: 'fail' } },
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'app')).toEqual(['Received', 'Task Setup', 'Task hook failed', 'Not Restarting']);
    const hook = lastEvent(runner, 'app', 'Task hook failed')!;
    expect(hook.DisplayMessage).toBe('template: local/creds.env:2:9: function "nomadVar" is not supported by svc (it needs Nomad variables, which svc\'s client does not provide)');
    expect(hook.Message).toBe(hook.DisplayMessage);
    expect(hook.Details).toEqual({ message: hook.DisplayMessage });
    expect(lastEvent(runner, 'app', 'Not Restarting')?.DisplayMessage).toBe('Error was unrecoverable');
    expect(taskState(runner, 'app')).toMatchObject({ State: 'dead', Failed: true });
    expect(runner.state().ClientStatus).toBe('failed');
    expect(existsSync(path.join(allocDir(alloc.ID), 'app/local/creds.env'))).toBe(false);
  });

  it('refuses a destination outside the allocation, and a missing key with error_on_missing_key', async () => {
    // One allocation each: a failed task would kill its sibling before its templates render.
    const hookError = async (template: Record<string, unknown>) => {
      const { runner } = await startRunner(makeAlloc({ tasks: [rawTask('app', 'true', { Templates: [template] })] }), tmp.dir);
      await allDead(runner);
      return lastEvent(runner, 'app', 'Task hook failed')?.DisplayMessage;
    };
    expect(await hookError(tmpl('../../outside.txt', 'x'))).toBe('template: template destination "../../outside.txt" escapes the allocation directory');
    // another task's directory is outside this task's sandbox too, as in Nomad
    expect(await hookError(tmpl('../other/local/x', 'x'))).toBe('template: template destination "../other/local/x" escapes the allocation directory');
    expect(await hookError(tmpl('/etc/svc-test', 'x'))).toBe('template: template destination "/etc/svc-test" escapes the allocation directory');
    expect(await hookError(tmpl('local/y', '{{ file "../../../etc/passwd" }}'))).toBe('template: local/y:1:4: error calling file: file "../../../etc/passwd" escapes the allocation directory');
    expect(await hookError(tmpl('local/x', '{{ (parseJSON `{"a":1}`).b }}', { ErrMissingKey: true }))).toBe('template: local/x:1:25: map has no entry for key "b"');
    expect(existsSync(path.join(tmp.dir, 'outside.txt'))).toBe(false);
  });

  it('does not follow a symbolic link out of the allocation directory', async () => {
    const outside = path.join(tmp.dir, 'outside-dir');
    mkdirSync(outside, { recursive: true });
    const alloc = makeAlloc({ tasks: [rawTask('app', 'true', { Templates: [tmpl('local/link/planted.txt', 'x')] })] });
    // What a task (or a sibling) could have left in the task directory before a re-render.
    mkdirSync(path.join(allocDir(alloc.ID), 'app/local'), { recursive: true });
    symlinkSync(outside, path.join(allocDir(alloc.ID), 'app/local/link'));
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(lastEvent(runner, 'app', 'Task hook failed')?.DisplayMessage).toMatch(/^template: template destination ".*planted.txt" leads outside the allocation directory through a symbolic link$/);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });

  it('reports a bad env = true file with the template it came from', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('app', 'true', { Templates: [tmpl('local/bad.env', 'GOOD=1\nthis line has no separator\n', { Envvars: true })] })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(lastEvent(runner, 'app', 'Task hook failed')?.DisplayMessage).toBe('template: error parsing env template "local/bad.env": error on line 2: missing "="');
  });

  it('keeps the rendered file across a restart unless render_templates is set, as Nomad does', async () => {
    const script = 'cat local/f >> "$NOMAD_ALLOC_DIR/data/seen"; echo changed-by-task > local/f; exit 1';
    const policy = (render: boolean) => ({ RestartPolicy: { Attempts: 1, Interval: 30 * 60 * SEC, Delay: 50 * MS, Mode: 'fail', RenderTemplates: render } });
    const run = async (render: boolean) => {
      const alloc = makeAlloc({ tasks: [rawTask('app', script, { Templates: [tmpl('local/f', 'rendered\n')] })], group: policy(render) });
      const { runner } = await startRunner(alloc, tmp.dir);
      await allDead(runner);
      expect(taskState(runner, 'app').Restarts).toBe(1);
      return readFileSync(path.join(allocDir(alloc.ID), 'alloc/data/seen'), 'utf8');
    };
    expect(await run(false)).toBe('rendered\nchanged-by-task\n');
    expect(await run(true)).toBe('rendered\nrendered\n');
  });

  it.runIf(execHealthy)('in an exec task: `env` sees the task’s paths, ${NOMAD_TASK_DIR} in a destination is the host’s', async () => {
    const alloc = makeAlloc({
      tasks: [
        {
          Name: 'iso',
          Driver: 'exec',
          Config: { command: '/bin/sh', args: ['-c', 'cat /local/conf.txt; echo "x=$X"'] },
          Templates: [
            tmpl('${NOMAD_TASK_DIR}/conf.txt', 'dir={{ env "NOMAD_TASK_DIR" }}\n'),
            tmpl('${NOMAD_SECRETS_DIR}/x.env', 'X=from-template\n', { Envvars: true }),
          ],
        },
      ],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(taskState(runner, 'iso').Failed).toBe(false);
    expect(readFileSync(path.join(allocDir(alloc.ID), 'alloc/logs/iso.stdout.0'), 'utf8')).toBe('dir=/local\nx=from-template\n');
  });
});
