import { describe, expect, it } from 'vitest';
import { TemplateError, renderTemplate } from '../../src/client/template/index.js';
import { parseEnvFile } from '../../src/client/template/env-file.js';
import { goTimeFormat } from '../../src/client/template/funcs.js';

const env = { NOMAD_TASK_NAME: 'web', NOMAD_META_version: '1.2.3', TAGS: 'a,b,c', EMPTY: '', JSON: '{"b":2,"a":[1,"x",true],"c":{"d":null}}' };
const r = (text: string, opts: Partial<Parameters<typeof renderTemplate>[1]> = {}) => renderTemplate(text, { name: 't.tpl', env, ...opts });

/** The error a template throws, as TemplateError. */
function fails(text: string, opts: Partial<Parameters<typeof renderTemplate>[1]> = {}): TemplateError {
  try {
    r(text, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(TemplateError);
    return err as TemplateError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}

describe('template language: text, actions, literals', () => {
  it('copies text and prints literals as Go does', () => {
    expect(r('plain text\nno actions')).toBe('plain text\nno actions');
    expect(r('{{ "str" }} {{ `raw\\n` }} {{ 42 }} {{ -7 }} {{ 1.5 }} {{ 0x1F }} {{ true }} {{ false }} {{ \'a\' }}')).toBe('str raw\\n 42 -7 1.5 31 true false 97');
    expect(r('{{ "tab\\there \\"q\\" \\u00e9" }}')).toBe('tab\there "q" é');
  });

  it('prints a missing value as <no value>, lists and maps as fmt does', () => {
    expect(r('{{ index (parseJSON "{}") "nope" }}')).toBe('<no value>');
    expect(r('{{ split "," "a,b,c" }}')).toBe('[a b c]');
    expect(r('{{ parseJSON `{"b":1,"a":"x","n":null}` }}')).toBe('map[a:x b:1 n:<nil>]');
  });

  it('reads the environment with env, and "" for an unset variable', () => {
    expect(r('name={{ env "NOMAD_TASK_NAME" }} v={{ env "NOMAD_META_version" }} unset=[{{ env "NOPE" }}]')).toBe('name=web v=1.2.3 unset=[]');
    expect(r('{{ envOrDefault "NOPE" "dflt" }} [{{ envOrDefault "EMPTY" "dflt" }}] {{ mustEnv "NOMAD_TASK_NAME" }}')).toBe('dflt [] web');
    expect(fails('{{ mustEnv "EMPTY" }}').reason).toBe('error calling mustEnv: required environment variable EMPTY is empty');
  });

  it('has no data: fields of dot are no value (an error with error_on_missing_key)', () => {
    expect(r('{{ .Anything }}|{{ .A.B }}')).toBe('<no value>|<no value>');
    expect(fails('{{ .Anything }}', { errMissingKey: true }).reason).toBe('nil data; no entry for key "Anything"');
  });

  it('reads files through the given reader', () => {
    expect(r('{{ file "local/x" | toUpper }}', { readFile: (p) => `content of ${p}` })).toBe('CONTENT OF LOCAL/X');
  });

  it('trims white space with {{- and -}} but keeps it with {{-3}}', () => {
    expect(r('a  \n\t {{- "b" -}} \n  c')).toBe('abc');
    expect(r('x {{- 3 }} y')).toBe('x3 y');
    expect(r('{{-3}}')).toBe('-3');
    expect(r('line1\n{{- /* a comment */ -}}\nline2')).toBe('line1line2');
  });

  it('drops comments', () => {
    expect(r('a{{/* comment {{ not an action }} */}}b')).toBe('ab');
    expect(r('a{{- /* multi\nline */}}  b')).toBe('a  b');
  });

  it('uses custom delimiters and leaves {{ }} as text then', () => {
    expect(r('[[ env "NOMAD_TASK_NAME" ]] {{ not an action }} [[- " x" -]]  !', { leftDelim: '[[', rightDelim: ']]' })).toBe('web {{ not an action }} x!');
    expect(r('<% toUpper "a" %>', { leftDelim: '<%', rightDelim: '%>' })).toBe('A');
  });
});

describe('template language: pipelines, variables and control structures', () => {
  it('passes the pipeline value as the last argument', () => {
    expect(r('{{ env "TAGS" | split "," | join ";" }}')).toBe('a;b;c');
    expect(r('{{ "Hello" | printf "%s, world" | toUpper }}')).toBe('HELLO, WORLD');
    expect(r('{{ 5 | subtract 2 }} {{ 2 | add 3 }} {{ 7 | divide 2 }} {{ 7.0 | multiply 1.5 }} {{ 7 | modulo 4 }}')).toBe('3 5 3 10.5 3');
  });

  it('declares, reads and assigns variables, scoped to their control structure', () => {
    expect(r('{{ $x := "one" }}{{ $x }}{{ $x = "two" }}-{{ $x }}')).toBe('one-two');
    expect(r('{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ $y := 3 }}{{ $y }}{{ end }}{{ $x }}')).toBe('32');
    expect(fails('{{ if true }}{{ $y := 3 }}{{ end }}{{ $y }}').reason).toBe('undefined variable "$y"');
  });

  it('if / else if / else, with Go truth', () => {
    const t = '{{ if eq (env "X") "a" }}A{{ else if eq (env "X") "b" }}B{{ else }}other{{ end }}';
    expect(r(t, { env: { X: 'a' } })).toBe('A');
    expect(r(t, { env: { X: 'b' } })).toBe('B');
    expect(r(t, { env: { X: 'z' } })).toBe('other');
    expect(r('{{ if "" }}t{{ else }}f{{ end }}{{ if 0 }}t{{ else }}f{{ end }}{{ if split "," "" }}t{{ else }}f{{ end }}{{ if "x" }}t{{ end }}')).toBe('ffft');
    expect(r('{{ if and (env "NOMAD_TASK_NAME") (not (env "EMPTY")) }}yes{{ end }}|{{ or (env "EMPTY") "fallback" }}|{{ and 1 0 2 }}')).toBe('yes|fallback|0');
  });

  it('range over lists, maps in key order and integers, with $i, $v, else, break and continue', () => {
    expect(r('{{ range $i, $v := split "," (env "TAGS") }}{{ $i }}={{ $v }} {{ end }}')).toBe('0=a 1=b 2=c ');
    expect(r('{{ range split "," (env "TAGS") }}[{{ . }}]{{ end }}')).toBe('[a][b][c]');
    expect(r('{{ range $k, $v := parseJSON (env "JSON") }}{{ $k }};{{ end }}')).toBe('a;b;c;');
    expect(r('{{ range $v := 3 }}{{ $v }}{{ end }}')).toBe('012');
    expect(r('{{ range split "," "" }}x{{ else }}empty{{ end }}')).toBe('empty');
    expect(r('{{ range $i, $v := loop 10 }}{{ if eq $v 2 }}{{ continue }}{{ end }}{{ if gt $v 4 }}{{ break }}{{ end }}{{ $v }}{{ end }}')).toBe('0134');
  });

  it('with sets dot, and else with chains', () => {
    expect(r('{{ with env "NOMAD_TASK_NAME" }}task {{ . }}{{ end }}')).toBe('task web');
    expect(r('{{ with env "EMPTY" }}x{{ else with env "NOMAD_TASK_NAME" }}second {{ . }}{{ else }}none{{ end }}')).toBe('second web');
    expect(r('{{ with $j := parseJSON (env "JSON") }}{{ .b }} {{ index .a 1 }} {{ $j.c.d }}{{ end }}')).toBe('2 x <no value>');
  });

  it('parenthesised pipelines and field chains on them', () => {
    expect(r('{{ (parseJSON (env "JSON")).b }}')).toBe('2');
    expect(r('{{ len (split "," (env "TAGS")) }} {{ len "héllo" }} {{ len (parseJSON (env "JSON")) }}')).toBe('3 6 3');
  });
});

describe('template language: functions', () => {
  it('strings', () => {
    expect(r('{{ toUpper "ab" }} {{ toLower "AB" }} {{ trimSpace "  x \\n" }} {{ replaceAll "a" "o" "banana" }} {{ toTitle "hello big world" }}')).toBe('AB ab x bonono Hello Big World');
    expect(r('{{ "prefix-x" | trimPrefix "prefix-" }} {{ "x.txt" | trimSuffix ".txt" }} {{ trim "-" "--x--" }} {{ indent 2 "a\\n\\nb" }}')).toBe('x x x   a\n\n  b');
    expect(r('{{ if split "," (env "TAGS") | contains "b" }}has b{{ end }} {{ contains "an" "banana" }} {{ in (split "," (env "TAGS")) "z" }} {{ in "abc" 1 }}')).toBe('has b true false false');
    expect(r('{{ regexMatch "^v[0-9]+" "v12" }} {{ regexReplaceAll "(\\\\w+)@(\\\\w+)" "${2} at $1" "me@host" }}')).toBe('true host at me');
    // RE2 syntax, as consul-template's Go regexp reads it.
    expect(r('{{ regexMatch "(?i)^V[[:digit:]]+$" "v12" }} {{ regexReplaceAll "(?i)L" "-" "lol" }} {{ regexReplaceAll "a*" "-" "baaac" }}')).toBe('true -o- -b-c-');
    expect(fails('{{ regexMatch "a(?=b)" "ab" }}').reason).toBe('error calling regexMatch: error parsing regexp: invalid or unsupported Perl syntax: `(?=` (RE2 has no look-ahead)');
  });

  it('printf with Go verbs, width, precision and its error notes', () => {
    expect(r('{{ printf "%s=%d %q %v %t %5.2f|%-4s|%04d %x %X %o %b %c %e %g %%" "k" 42 "q\\"" 1.5 true 3.14159 "ab" 7 255 "hi" 8 5 65 1234.5678 0.000012 }}')).toBe(
      'k=42 "q\\"" 1.5 true  3.14|ab  |0007 ff 6869 10 101 A 1.234568e+03 1.2e-05 %',
    );
    expect(r('{{ printf "%d %s" "x" }}')).toBe('%!d(string=x) %!s(MISSING)');
    expect(r('{{ printf "%s" "a" "extra" }}')).toBe('a%!(EXTRA string=extra)');
    expect(r('{{ print "a" 1 2 "b" }}|{{ println "a" 1 }}')).toBe('a1 2b|a 1\n');
  });

  it('comparisons: eq with several values, ne, lt, le, gt, ge, and type errors', () => {
    expect(r('{{ eq 1 2 3 1 }} {{ ne "a" "b" }} {{ lt 1 2 }} {{ le 2 2 }} {{ gt "b" "a" }} {{ ge 1 2 }}')).toBe('true true true true true false');
    expect(fails('{{ eq 1 "1" }}').reason).toBe('error calling eq: incompatible types for comparison');
  });

  it('JSON, base64, hashes, index, slice and conversions', () => {
    expect(r('{{ parseJSON (env "JSON") | toJSON }}')).toBe('{"a":[1,"x",true],"b":2,"c":{"d":null}}');
    expect(r('{{ toJSON "<a&b>" }} {{ toUnescapedJSON "<a>" }}')).toBe('"\\u003ca\\u0026b\\u003e" "<a>"');
    expect(r('{{ parseJSON `{"a":[1]}` | toJSONPretty }}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(r('{{ base64Encode "hello" }} {{ base64Decode "aGVsbG8=" }} {{ base64URLEncode "??>" }} {{ sha256Hex "a" | printf "%.8s" }} {{ md5sum "a" }}')).toBe(
      'aGVsbG8= hello Pz8- ca978112 0cc175b9c0f1b6a831c399e269772661',
    );
    expect(r('{{ index (split "," "a,b") 1 }} {{ index (parseJSON `{"k":{"n":5}}`) "k" "n" }} {{ slice "abcdef" 1 3 }} {{ slice (split "," "a,b,c") 1 }}')).toBe('b 5 bc [b c]');
    expect(r('{{ parseInt "42" | add 1 }} {{ parseFloat "1.25" }} {{ parseBool "true" }} {{ "12" | parseInt | printf "%03d" }}')).toBe('43 1.25 true 012');
    expect(fails('{{ index (split "," "a") 3 }}').reason).toBe('error calling index: index out of range: 3');
  });

  it('timestamp in UTC: RFC 3339 by default, unix, or a Go layout', () => {
    const now = () => new Date(Date.UTC(2024, 2, 5, 14, 7, 9, 120));
    expect(r('{{ timestamp }}|{{ timestamp "unix" }}|{{ timestamp "2006-01-02 15:04:05.000 Mon Jan _2 3PM" }}', { now })).toBe(
      '2024-03-05T14:07:09Z|1709647629|2024-03-05 14:07:09.120 Tue Mar  5 2PM',
    );
    expect(goTimeFormat(now(), 'January 2, 2006')).toBe('March 5, 2024');
  });
});

describe('template language: errors name file, line and column', () => {
  it('refuses functions that need Consul, Vault or Nomad’s APIs, at parse time, naming them', () => {
    const e = fails('line one\n  {{ with nomadVar "nomad/jobs/x" }}{{ .v }}{{ end }}');
    expect(e.message).toBe('t.tpl:2:11: function "nomadVar" is not supported by svc (it needs Nomad variables, which svc\'s client does not provide)');
    expect(fails('{{ if false }}{{ key "a/b" }}{{ end }}').reason).toMatch(/^function "key" is not supported by svc \(it needs Consul's KV store/);
    expect(fails('{{ range nomadService "db" }}{{ end }}').reason).toMatch(/nomadService.*not supported by svc/);
    expect(fails('{{ with pkiCert "pki/issue/web" }}{{ end }}').reason).toMatch(/pkiCert.*Vault/);
    expect(fails('{{ sprig_upper "x" }}').reason).toMatch(/sprig_upper.*not supported by svc/);
    expect(fails('{{ writeToFile "x" "y" "z" "w" }}').reason).toBe('function "writeToFile" is disabled');
  });

  it('reports unknown functions, syntax errors and runtime errors with positions', () => {
    expect(fails('ok\n{{ nosuch 1 }}').message).toBe('t.tpl:2:4: function "nosuch" not defined');
    expect(fails('{{ if true }}unterminated').message).toBe('t.tpl:1:4: unexpected EOF: {{if}} has no {{end}}');
    expect(fails('a {{ end }}').message).toBe('t.tpl:1:6: unexpected {{end}}');
    expect(fails('{{ "unterminated }}').message).toBe('t.tpl:1:4: unterminated quoted string');
    expect(fails('x\n\n   {{ $undefined }}').message).toBe('t.tpl:3:7: undefined variable "$undefined"');
    expect(fails('{{ break }}').reason).toBe('{{break}} outside {{range}}');
    expect(fails('{{ toUpper }}').message).toBe('t.tpl:1:4: wrong number of args for toUpper: want 1 got 0');
    expect(fails('{{\n  1 | toUpper\n}}').message).toBe('t.tpl:2:7: error calling toUpper: toUpper: argument must be a string, got int');
    expect(fails('{{ "x" 1 }}').reason).toBe('can\'t give argument to non-function "x"');
    expect(fails('{{ (parseJSON "{}").a.b }}').reason).toMatch(/^nil pointer evaluating interface \{\}\.b/);
    expect(fails('{{/* open').reason).toBe('unclosed comment');
    expect(fails('{{ 1 ').reason).toBe('unclosed action');
  });

  it('error_on_missing_key turns a missing map key into an error', () => {
    expect(r('{{ (parseJSON `{"a":1}`).b }}')).toBe('<no value>');
    expect(fails('{{ (parseJSON `{"a":1}`).b }}', { errMissingKey: true }).reason).toBe('map has no entry for key "b"');
  });
});

describe('env = true files', () => {
  it('parses KEY=VALUE lines as Nomad does (go-envparse)', () => {
    expect(
      parseEnvFile(
        [
          '# a comment',
          '',
          'PLAIN=value with spaces   # trailing comment',
          'export EXPORTED=1',
          'SINGLE=\'quoted # not a comment\'',
          'DOUBLE="line1\\nline2 \\"q\\" \\u00e9"',
          '  SPACED = x  ',
          'EMPTY=',
          'MIXED=a"b"\'c\'',
        ].join('\n'),
      ),
    ).toEqual({ PLAIN: 'value with spaces', EXPORTED: '1', SINGLE: 'quoted # not a comment', DOUBLE: 'line1\nline2 "q" é', SPACED: 'x', EMPTY: '', MIXED: 'abc' });
    expect(() => parseEnvFile('OK=1\nno separator')).toThrow('error on line 2: missing "="');
    expect(() => parseEnvFile('1BAD=x')).toThrow(/error on line 1: key "1BAD"/);
    expect(() => parseEnvFile('A="open')).toThrow('error on line 1: unmatched "');
  });
});
