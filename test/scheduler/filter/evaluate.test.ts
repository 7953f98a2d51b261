import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../src/scheduler/filter/index.js';
import { UserError } from '../../../src/shared/errors.js';

/** Shaped like the objects list endpoints filter: a job and an allocation in Nomad's JSON. */
const job = {
  ID: 'web-frontend',
  Name: 'web-frontend',
  Namespace: 'default',
  Type: 'service',
  Status: 'running',
  Priority: 50,
  Stop: false,
  Datacenters: ['dc1', 'dc2'],
  Meta: { team: 'infra', 'a.b': 'dotted' },
  Tags: ['v1', 'canary'],
  EmptyMeta: {},
  EmptyList: [],
  EmptyString: '',
  Periodic: null,
  Ratio: 0.5,
  Mixed: [1, 'two', true, null],
  TaskGroups: [
    { Name: 'web', Count: 3, Tasks: [{ Name: 'nginx', Driver: 'docker' }] },
    { Name: 'cache', Count: 1, Tasks: [{ Name: 'redis', Driver: 'raw_exec' }] },
  ],
  TaskStates: {
    redis: { State: 'running', Failed: false, Restarts: 0 },
    nginx: { State: 'running', Failed: false, Restarts: 2 },
  },
};

const run = (expr: string, datum: unknown = job): boolean => compileFilter(expr)(datum);

function evalError(expr: string, datum: unknown = job): UserError {
  const f = compileFilter(expr);
  try {
    f(datum);
  } catch (err) {
    if (err instanceof UserError) return err;
    throw err;
  }
  throw new Error(`${expr} evaluated without an error`);
}

describe("filter evaluation: go-bexpr's documented examples", () => {
  it.each([
    ['Status == "running"', true],
    ['Datacenters contains "dc2"', true],
    ['Meta.team == "infra"', true],
    ['"v1" in Tags', true],
    ['Meta is empty', false],
    ['EmptyMeta is empty', true],
    ['TaskStates.redis.State == "running"', true],
    ['ID matches "^web-"', true],
    ['ID matches "^api-"', false],
  ])('%s → %s', (expr, want) => {
    expect(run(expr)).toBe(want);
  });

  it('ClientStatus != "complete" and TaskGroup == "web"', () => {
    const f = compileFilter('ClientStatus != "complete" and TaskGroup == "web"');
    expect(f({ ClientStatus: 'running', TaskGroup: 'web' })).toBe(true);
    expect(f({ ClientStatus: 'complete', TaskGroup: 'web' })).toBe(false);
    expect(f({ ClientStatus: 'running', TaskGroup: 'db' })).toBe(false);
  });
});

describe('filter evaluation: operators on present values', () => {
  it.each([
    ['Status == running', true],
    ['Status == pending', false],
    ['Status != pending', true],
    ['Status != running', false],
    ['Datacenters contains dc3', false],
    ['Datacenters not contains dc3', true],
    ['Datacenters not contains dc1', false],
    ['dc1 in Datacenters', true],
    ['dc9 not in Datacenters', true],
    ['dc1 not in Datacenters', false],
    ['team in Meta', true],
    ['infra in Meta', false],
    ['Meta contains team', true],
    ['Meta not contains nobody', true],
    ['"front" in ID', true],
    ['ID contains back', false],
    ['ID not contains back', true],
    ['ID matches "end$"', true],
    ['ID not matches "end$"', false],
    ['ID not matches "^x"', true],
    ['Tags is not empty', true],
    ['EmptyList is empty', true],
    ['EmptyList is not empty', false],
    ['EmptyString is empty', true],
    ['Name is empty', false],
    ['Periodic is nil', true],
    ['Periodic is not nil', false],
    ['Meta is nil', false],
    ['Meta is not nil', true],
    ['Periodic is empty', true],
  ])('%s → %s', (expr, want) => {
    expect(run(expr)).toBe(want);
  });
});

describe('filter evaluation: a missing map key', () => {
  it.each([
    ['Meta.owner == "x"', false],
    ['Meta.owner != "x"', true],
    ['"x" in Meta.owner', false],
    ['"x" not in Meta.owner', true],
    ['Meta.owner contains "x"', false],
    ['Meta.owner not contains "x"', true],
    ['Meta.owner is empty', true],
    ['Meta.owner is not empty', false],
    ['Meta.owner matches ".*"', false],
    ['Meta.owner not matches ".*"', true],
    ['Meta.owner is nil', true],
    ['Meta.owner is not nil', false],
  ])('%s → %s', (expr, want) => {
    expect(run(expr)).toBe(want);
  });

  it('treats a top-level field the object lacks as a missing key, not an error', () => {
    expect(run('NoSuchField == 1')).toBe(false);
    expect(run('NoSuchField != 1')).toBe(true);
  });

  it('treats selecting through null or past the end of a list as a missing key', () => {
    expect(run('Periodic.Spec == "x"')).toBe(false);
    expect(run('Periodic.Spec is nil')).toBe(true);
    expect(run('Tags.5 == v1')).toBe(false);
    expect(run('Tags.5 != v1')).toBe(true);
  });
});

describe('filter evaluation: coercion of the literal to the field kind', () => {
  it('compares numbers numerically', () => {
    expect(run('Priority == 50')).toBe(true);
    expect(run('Priority == 50.0')).toBe(true);
    expect(run('Priority == "50"')).toBe(true);
    expect(run('Priority == 51')).toBe(false);
    expect(run('Priority != 51')).toBe(true);
    expect(run('Ratio == 0.5')).toBe(true);
    // Unquoted, 0x32 is not a number literal of the grammar; quoted, it is read as Go's ParseInt would.
    expect(() => compileFilter('Priority == 0x32')).toThrow(/Invalid number literal/);
    expect(run('Priority == "0x32"')).toBe(true);
    expect(run('Priority == "5e1"')).toBe(true);
  });

  it('compares booleans with Go ParseBool spellings', () => {
    expect(run('Stop == false')).toBe(true);
    expect(run('Stop == "F"')).toBe(true);
    expect(run('Stop == 0')).toBe(true);
    expect(run('Stop == true')).toBe(false);
    expect(run('Stop != True')).toBe(true);
  });

  it('compares strings exactly, even when the literal looks like a number', () => {
    expect(run('Version == 1', { Version: '1' })).toBe(true);
    expect(run('Version == 1.0', { Version: '1' })).toBe(false);
  });

  it('coerces per element for in on a list of mixed kinds and skips elements it cannot read', () => {
    expect(run('1 in Mixed')).toBe(true);
    expect(run('two in Mixed')).toBe(true);
    expect(run('true in Mixed')).toBe(true);
    expect(run('3 in Mixed')).toBe(false);
    expect(run('50 in Nums', { Nums: [10, 50] })).toBe(true);
  });

  it('throws a UserError when the literal cannot be read as the field kind', () => {
    expect(evalError('Priority == high').message).toMatch(/^error evaluating filter at selector Priority: cannot read "high" as a number/);
    expect(evalError('Stop == maybe').message).toMatch(/as a bool/);
  });
});

describe('filter evaluation: errors', () => {
  it('rejects matches on a number', () => {
    const err = evalError('Priority matches "5"');
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(/matches.*number/);
  });

  it('rejects contains on a number or a bool and is empty on a number', () => {
    expect(evalError('Priority contains 5').message).toMatch(/number/);
    expect(evalError('Stop contains x').message).toMatch(/bool/);
    expect(evalError('Priority is empty').message).toMatch(/number/);
  });

  it('rejects equality on a map or a list', () => {
    expect(evalError('Meta == x').message).toMatch(/map/);
    expect(evalError('Tags == x').message).toMatch(/list/);
  });

  it('rejects selecting a key of a scalar or a named key of a list', () => {
    expect(evalError('Status.Foo == x').message).toMatch(/^error finding value in datum: selector Status.Foo/);
    expect(evalError('Tags.first == x').message).toMatch(/^error finding value in datum/);
  });

  it('rejects in on a list of maps', () => {
    expect(evalError('web in TaskGroups').message).toMatch(/list of maps/);
  });
});

describe('filter evaluation: logic', () => {
  it('and binds tighter than or', () => {
    // Read as (false and ...) or true; or-first grouping would give false.
    expect(run('Status == pending and Priority == 50 or Type == service')).toBe(true);
    expect(run('Type == service or Status == pending and Priority == 1')).toBe(true);
    expect(run('(Type == service or Status == pending) and Priority == 1')).toBe(false);
  });

  it('chains several or and several and terms', () => {
    expect(run('Status == a or Status == b or Status == running')).toBe(true);
    expect(run('Status == a or Status == b or Status == c')).toBe(false);
    expect(run('Type == service and Priority == 50 and Stop == false')).toBe(true);
    expect(run('Type == service and Priority == 50 and Stop == true')).toBe(false);
  });

  it('not negates only the next term', () => {
    expect(run('not Status == pending')).toBe(true);
    expect(run('not Status == running')).toBe(false);
    expect(run('not Status == pending and Priority == 1')).toBe(false);
    expect(run('not (Status == running and Priority == 1)')).toBe(true);
    expect(run('not not Status == running')).toBe(true);
  });

  it('short-circuits, so an error on the right of a decided or does not surface', () => {
    expect(run('Status == running or Priority matches "x"')).toBe(true);
    expect(() => run('Status == pending or Priority matches "x"')).toThrow(UserError);
  });
});

describe('filter evaluation: selectors', () => {
  it('reads .ident, .digits, ["string"] and JSON-pointer selectors', () => {
    expect(run('TaskGroups.1.Name == cache')).toBe(true);
    expect(run('TaskGroups.0.Tasks.0.Driver == docker')).toBe(true);
    expect(run('Meta["a.b"] == dotted')).toBe(true);
    expect(run('Meta.a.b == dotted')).toBe(false);
    expect(run('TaskStates["nginx"].Restarts == 2')).toBe(true);
    expect(run('"/TaskStates/nginx/Restarts" == 2')).toBe(true);
    expect(run('"/TaskGroups/1/Name" == cache')).toBe(true);
    expect(run('"/Meta/a.b" == dotted')).toBe(true);
    expect(run('"/Meta/a~1b" is nil', { Meta: { 'a/b': 1 } })).toBe(false);
  });

  it('reads node-attribute style keys containing /', () => {
    expect(run('Attributes.unique/hostname == h1', { Attributes: { 'unique/hostname': 'h1' } })).toBe(true);
  });
});

describe('filter evaluation: collection expressions', () => {
  it('any over a list binds each element', () => {
    expect(run('any TaskGroups as g { g.Name == cache }')).toBe(true);
    expect(run('any TaskGroups as g { g.Name == db }')).toBe(false);
  });

  it('all over a list binds each element', () => {
    expect(run('all TaskGroups as g { g.Count != 0 and g.Name is not empty }')).toBe(true);
  });

  it('all and any differ when only some elements match', () => {
    expect(run('all Datacenters as dc { dc == dc1 }')).toBe(false);
    expect(run('any Datacenters as dc { dc == dc1 }')).toBe(true);
  });

  it('a single name over a map binds the key', () => {
    expect(run('any TaskStates as name { name == redis }')).toBe(true);
    expect(run('all TaskStates as name { name matches "^(redis|nginx)$" }')).toBe(true);
    expect(run('all TaskStates as name { name == redis }')).toBe(false);
  });

  it('key, value over a map binds both', () => {
    expect(run('any TaskStates as name, st { name == nginx and st.Restarts == 2 }')).toBe(true);
    expect(run('any TaskStates as name, st { name == redis and st.Restarts == 2 }')).toBe(false);
  });

  it('_, value binds only the value', () => {
    expect(run('all TaskStates as _, st { st.State == running }')).toBe(true);
    expect(run('any TaskStates as _, st { st.Failed == true }')).toBe(false);
  });

  it('index, _ binds only the index or key', () => {
    expect(run('any Datacenters as i, _ { i == 1 }')).toBe(true);
    expect(run('any Datacenters as i, _ { i == 2 }')).toBe(false);
    expect(run('any TaskStates as k, _ { k == nginx }')).toBe(true);
  });

  it('index and value over a list', () => {
    expect(run('any Datacenters as i, dc { i == 0 and dc == dc1 }')).toBe(true);
    expect(run('any Datacenters as i, dc { i == 0 and dc == dc2 }')).toBe(false);
  });

  it('nests, and a selector that is not a binding still reads the datum', () => {
    expect(run('any TaskGroups as g { any g.Tasks as t { t.Driver == raw_exec and Status == running } }')).toBe(true);
    expect(run('any TaskGroups as g { any g.Tasks as t { t.Driver == raw_exec and Status == pending } }')).toBe(false);
  });

  it('treats a missing or null collection as empty', () => {
    expect(run('any Nope as x { x == 1 }')).toBe(false);
    expect(run('all Nope as x { x == 1 }')).toBe(true);
    expect(run('any Periodic as x { x == 1 }')).toBe(false);
  });

  it('rejects a collection expression over a scalar', () => {
    expect(evalError('any Status as c { c == r }').message).toMatch(/needs a list or a map/);
  });
});

describe('compileFilter', () => {
  it('parses once and can be applied to many data', () => {
    const f = compileFilter('Status == running');
    expect([{ Status: 'running' }, { Status: 'dead' }, {}].map(f)).toEqual([true, false, false]);
  });

  it('keeps no regular-expression state between data', () => {
    const f = compileFilter('ID matches "a"');
    expect([{ ID: 'a' }, { ID: 'a' }, { ID: 'a' }].map(f)).toEqual([true, true, true]);
  });
});
