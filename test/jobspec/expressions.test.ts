import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/shared/errors.js';
import { type ApiJob, parseJobspec, type ParseJobspecOptions } from '../../src/jobspec/index.js';

function firstGroup(job: ApiJob): Record<string, unknown> {
  return job.TaskGroups![0];
}

function firstTask(job: ApiJob): Record<string, unknown> {
  return (firstGroup(job).Tasks as Array<Record<string, unknown>>)[0];
}

/** Wraps an expression in a minimal job and returns its value as the driver config saw it. */
async function evalExpr(expr: string): Promise<unknown> {
  const job = await parseJobspec(`job "x" {\n  group "g" {\n    task "t" {\n      driver = "raw_exec"\n      config {\n        v = ${expr}\n      }\n    }\n  }\n}\n`, {});
  return (firstTask(job).Config as Record<string, unknown>).v;
}

async function parseTask(taskBody: string, opts: ParseJobspecOptions = {}): Promise<Record<string, unknown>> {
  return firstTask(await parseJobspec(`job "x" {\n  group "g" {\n    task "t" {\n${taskBody}\n    }\n  }\n}\n`, opts));
}

/** Resolves to the thrown error's message, failing the test when nothing is thrown. */
async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error, but parsing succeeded');
}

describe('operators and literals', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 / 4', 2.5],
    ['10 % 4', 2],
    ['-3 + 1', -2],
    ['1 < 2 && 2 <= 2', true],
    ['3 > 4 || 4 >= 5', false],
    ['!true', false],
    ['"a" == "a"', true],
    ['[1, 2] != [1, 2]', false],
    ['true ? "yes" : "no"', 'yes'],
    ['1 > 2 ? "yes" : "no"', 'no'],
    ['null', null],
    ['1.5e2', 150],
    ['"tab\\there"', 'tab\there'],
    ['"\\u00e9"', 'é'],
    ['{ a = 1, "b" = [true, "x"] }', { a: 1, b: [true, 'x'] }],
    ['[1, 2, 3][1]', 2],
    ['{ k = "v" }["k"]', 'v'],
    ['{ k = { n = 3 } }.k.n', 3],
    ['[{ n = 1 }, { n = 2 }][*].n', [1, 2]],
    ['"${1 + 1} items"', '2 items'],
  ])('%s', async (expr, want) => {
    expect(await evalExpr(expr)).toEqual(want);
  });

  it('evaluates multi-line objects and lists inside brackets', async () => {
    expect(await evalExpr('{\n          a = 1\n          b = [\n            2,\n            3,\n          ]\n        }')).toEqual({ a: 1, b: [2, 3] });
  });

  it('evaluates for expressions over lists and maps, with filters and grouping', async () => {
    expect(await evalExpr('[for s in ["a", "b", "c"] : upper(s) if s != "b"]')).toEqual(['A', 'C']);
    expect(await evalExpr('{ for k, v in { x = 1, y = 2 } : v => k }')).toEqual({ 1: 'x', 2: 'y' });
    expect(await evalExpr('[for i, s in ["a", "b"] : "${i}-${s}"]')).toEqual(['0-a', '1-b']);
    expect(await evalExpr('{ for s in ["aa", "ab", "b"] : substr(s, 0, 1) => s... }')).toEqual({ a: ['aa', 'ab'], b: ['b'] });
  });

  it('keeps a single interpolation\'s type and converts inside longer templates', async () => {
    expect(await evalExpr('"${2 * 2}"')).toBe(4);
    expect(await evalExpr('"n=${true}"')).toBe('n=true');
  });

  it('reports division by zero with a position', async () => {
    const msg = await errorOf(evalExpr('1 / 0'));
    expect(msg).toMatch(/job\.nomad\.hcl:\d+:\d+: Division by zero/);
  });
});

describe('runtime interpolations stay verbatim', () => {
  it('keeps ${...} references the client resolves, inside and outside larger strings', async () => {
    const task = await parseTask(`
      driver = "raw_exec"
      config {
        command = "\${NOMAD_TASK_DIR}/run.sh"
        args    = ["\${NOMAD_PORT_http}", "\${attr.kernel.name}", "\${meta.rack}", "\${node.unique.id}", "\${env["HOME"]}", "x-\${network.ip}-y"]
      }
      env {
        HOST = "\${attr.unique.hostname}:\${NOMAD_PORT_http}"
      }`);
    expect(task.Config).toEqual({
      command: '${NOMAD_TASK_DIR}/run.sh',
      args: ['${NOMAD_PORT_http}', '${attr.kernel.name}', '${meta.rack}', '${node.unique.id}', '${env["HOME"]}', 'x-${network.ip}-y'],
    });
    expect(task.Env).toEqual({ HOST: '${attr.unique.hostname}:${NOMAD_PORT_http}' });
  });

  it('keeps runtime references in heredocs but evaluates variables there', async () => {
    const job = await parseJobspec(`
variable "greeting" {
  default = "hi"
}
job "x" {
  group "g" {
    task "t" {
      driver = "raw_exec"
      template {
        destination = "local/nginx.conf"
        data = <<EOF
say \${var.greeting}
proxy_set_header Host \${host};
port {{ env "NOMAD_PORT_http" }}
EOF
      }
    }
  }
}
`);
    const tmpl = ((job.TaskGroups![0].Tasks as Array<Record<string, unknown>>)[0].Templates as Array<Record<string, unknown>>)[0];
    expect(tmpl.EmbeddedTmpl).toBe('say hi\nproxy_set_header Host ${host};\nport {{ env "NOMAD_PORT_http" }}\n');
  });

  it('turns a bare runtime reference into its ${...} text, as jobspec2 does', async () => {
    expect(await evalExpr('attr.kernel.name')).toBe('${attr.kernel.name}');
    expect(await evalExpr('"${upper(node.class)}"')).toBe('${upper(node.class)}');
  });

  it('unescapes $${ to a literal ${ and does not evaluate it', async () => {
    expect(await evalExpr('"$${var.nope} and $${NOMAD_X}"')).toBe('${var.nope} and ${NOMAD_X}');
  });

  it('strips heredoc indentation with <<-', async () => {
    expect(await evalExpr('<<-EOT\n          a\n            b\n          EOT')).toBe('a\n  b\n');
  });

  it('still rejects an undeclared var.* reference', async () => {
    const err = await parseJobspec('job "x" {\n  name = var.missing\n}\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain('job.nomad.hcl:2:10');
    expect((err as Error).message).toContain('undeclared input variable "var.missing"');
  });
});

describe('functions', () => {
  it.each([
    ['upper("abc")', 'ABC'],
    ['lower("ABC")', 'abc'],
    ['title("hello big world")', 'Hello Big World'],
    ['trimspace("  x \\n")', 'x'],
    ['format("%s-%03d-%v-%.2f-%q-%t", "a", 7, 1, 3.14159, "q", true)', 'a-007-1-3.14-"q"-true'],
    ['format("100%%")', '100%'],
    ['join("-", ["a", "b"], ["c"])', 'a-b-c'],
    ['split(",", "a,b,c")', ['a', 'b', 'c']],
    ['split(",", "")', []],
    ['concat([1], [2, 3], [])', [1, 2, 3]],
    ['merge({ a = 1, b = 1 }, { b = 2 })', { a: 1, b: 2 }],
    ['lookup({ a = 1 }, "a")', 1],
    ['lookup({ a = 1 }, "z", "dflt")', 'dflt'],
    ['min(3, 1, 2)', 1],
    ['max(3, 1, 2)', 3],
    ['max([4, 9]...)', 9],
    ['length("héllo")', 5],
    ['length([1, 2])', 2],
    ['length({ a = 1 })', 1],
    ['jsonencode({ a = [1, "x"] })', '{"a":[1,"x"]}'],
    ['jsondecode("{\\"a\\": [1, true]}")', { a: [1, true] }],
    ['replace("a-b-c", "-", "_")', 'a_b_c'],
    ['replace("v1.2.3", "/[0-9]/", "N")', 'vN.N.N'],
    ['coalesce("", null, "x", "y")', 'x'],
    ['contains(["a", "b"], "b")', true],
    ['contains(["a", "b"], "z")', false],
    ['element(["a", "b", "c"], 4)', 'b'],
    ['keys({ b = 1, a = 2 })', ['a', 'b']],
    ['values({ b = 1, a = 2 })', [2, 1]],
    ['tostring(5)', '5'],
    ['tonumber("42")', 42],
    ['abs(-4)', 4],
    ['ceil(1.2)', 2],
    ['floor(1.8)', 1],
    ['range(3)', [0, 1, 2]],
    ['range(1, 7, 2)', [1, 3, 5]],
    ['range(3, 0)', [3, 2, 1]],
    ['substr("hello", 1, 3)', 'ell'],
    ['substr("hello", -3, -1)', 'llo'],
    ['trim("--x--", "-")', 'x'],
    ['trimprefix("v1.2", "v")', '1.2'],
    ['trimsuffix("app.service", ".service")', 'app'],
    ['chomp("line\\n\\n")', 'line'],
    ['startswith("nomad", "no")', true],
    ['endswith("nomad", "x")', false],
    ['strrev("abc")', 'cba'],
    ['indent(2, "a\\nb")', 'a\n  b'],
    ['regex_replace("a1b22", "[0-9]+", "#")', 'a#b#'],
    ['regex_replace("Web-12", "(?i)^web-([[:digit:]]+)$", "n$1")', 'n12'],
    ['regex_replace("a1", "(?P<d>[0-9])", "<$${d}>")', 'a<1>'],
    ['replace("a.b.c", "/\\\\./", "-")', 'a-b-c'],
    ['base64encode("hi")', 'aGk='],
    ['base64decode("aGk=")', 'hi'],
    ['formatlist("%s=%d", ["a", "b"], [1, 2])', ['a=1', 'b=2']],
    ['flatten([[1], [2, [3]]])', [1, 2, 3]],
    ['distinct([1, 1, 2])', [1, 2]],
    ['compact(["a", "", null, "b"])', ['a', 'b']],
    ['reverse([1, 2])', [2, 1]],
    ['sort(["b", "a"])', ['a', 'b']],
    ['slice([1, 2, 3], 1, 3)', [2, 3]],
    ['index(["a", "b"], "b")', 1],
    ['sum([1, 2, 3])', 6],
    ['zipmap(["a", "b"], [1, 2])', { a: 1, b: 2 }],
    ['toset(["a", "a"])', ['a']],
    ['try(var.nope, "fallback")', 'fallback'],
    ['try({ a = 1 }.b, { a = 1 }.a)', 1],
    ['can(tonumber("x"))', false],
    ['can(tonumber("4"))', true],
  ])('%s', async (expr, want) => {
    expect(await evalExpr(expr)).toEqual(want);
  });

  it('rejects unknown functions and wrong argument counts with a position', async () => {
    expect(await errorOf(evalExpr('nope(1)'))).toMatch(/:\d+:\d+: Call to unknown function "nope"/);
    expect(await errorOf(evalExpr('upper("a", "b")'))).toContain('upper() takes 1 argument, got 2');
    expect(await errorOf(evalExpr('lookup({}, "k")'))).toContain('no key "k"');
    expect(await errorOf(evalExpr('tonumber("x")'))).toContain('a number is required');
    expect(await errorOf(evalExpr('regex_replace("a", "a(?=b)", "c")'))).toContain(
      'regex_replace() got an invalid pattern: error parsing regexp: invalid or unsupported Perl syntax: `(?=` (RE2 has no look-ahead)',
    );
    expect(await errorOf(evalExpr('replace("a", "/(/", "c")'))).toContain('replace() got an invalid pattern: error parsing regexp: missing closing ): `(`');
  });

  it('reads file() relative to baseDir and refuses it without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobspec-'));
    writeFileSync(join(dir, 'script.sh'), 'echo hi\n');
    const src = 'job "x" {\n  group "g" {\n    task "t" {\n      driver = "raw_exec"\n      config {\n        v = file("script.sh")\n      }\n    }\n  }\n}\n';
    const job = await parseJobspec(src, { baseDir: dir });
    expect(((job.TaskGroups![0].Tasks as Array<Record<string, unknown>>)[0].Config as Record<string, unknown>).v).toBe('echo hi\n');
    expect(await errorOf(parseJobspec(src, {}))).toContain('file() is not available here');
  });
});

describe('template directives', () => {
  it('evaluates %{ if } with and without else', async () => {
    expect(await evalExpr('"%{ if 1 < 2 }yes%{ else }no%{ endif }"')).toBe('yes');
    expect(await evalExpr('"a%{ if false }b%{ endif }c"')).toBe('ac');
  });

  it('evaluates %{ for } over lists and maps', async () => {
    expect(await evalExpr('"%{ for s in ["a", "b"] }[${s}]%{ endfor }"')).toBe('[a][b]');
    expect(await evalExpr('"%{ for k, v in { y = 2, x = 1 } }${k}=${v};%{ endfor }"')).toBe('x=1;y=2;');
  });

  it('applies ~ strip markers and keeps runtime references inside directive bodies', async () => {
    const heredoc = '<<EOT\n%{ for p in ["80", "443"] ~}\nlisten ${p} ${NOMAD_IP_http};\n%{ endfor ~}\nend\nEOT';
    expect(await evalExpr(heredoc)).toBe('listen 80 ${NOMAD_IP_http};\nlisten 443 ${NOMAD_IP_http};\nend\n');
    expect(await evalExpr('"a   ${~ "b" ~}   c"')).toBe('abc');
  });

  it('unescapes %%{ to a literal %{', async () => {
    expect(await evalExpr('"curl -w %%{http_code}"')).toBe('curl -w %{http_code}');
  });

  it('reports unterminated or runtime-dependent directives', async () => {
    expect(await errorOf(evalExpr('"%{ if true }x"'))).toContain('Unterminated %{ if }');
    expect(await errorOf(evalExpr('"%{ if attr.x == "1" }x%{ endif }"'))).toContain('cannot depend on runtime values');
    expect(await errorOf(evalExpr('"%{ while true }"'))).toContain('Unexpected template directive "while"');
  });
});

describe('evaluation budget', () => {
  it('refuses nested for expressions that would produce millions of values, naming the line', async () => {
    const { parseJobspec: parse } = await import('../../src/jobspec/index.js');
    const src = 'job "a" {\n  meta {\n    x = length([for i in range(1024): [for j in range(1024): [for k in range(10): k]]])\n  }\n}\n';
    await expect(parse(src)).rejects.toThrow(/more than 1000000 values/);
    await expect(parse(src)).rejects.toThrow(/:3:/);
  });

  it('allows ordinary loops', async () => {
    const { parseJobspec: parse } = await import('../../src/jobspec/index.js');
    const job = await parse('job "a" {\n  meta {\n    n = length([for i in range(1000): i])\n  }\n}\n');
    expect((job.Meta as Record<string, unknown>).n).toBe('1000');
  });
});
