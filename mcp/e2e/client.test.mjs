// fsrb mcp driven by the official TypeScript SDK's client over stdio: the
// tools, their schemas and annotations, errors with their kinds, CRLF,
// all-or-nothing batches, undo, path escapes, and the client's roots.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const fsrb = process.env.FSRB;
if (!fsrb) throw new Error('set FSRB to the fsrb binary (mcp/e2e/run.sh does)');

async function connect({ cwd, args = [], roots } = {}) {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'fsrb-e2e-state-'));
  const transport = new StdioClientTransport({
    command: fsrb, args: ['mcp', ...args], cwd,
    env: { ...process.env, XDG_STATE_HOME: state },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'fsrb-e2e', version: '1.0.0' },
    { capabilities: roots ? { roots: { listChanged: true } } : {} });
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: path.basename(r) })),
    }));
  }
  await client.connect(transport);
  return client;
}

function tmpdir() {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fsrb-e2e-')));
}

const text = (res) => res.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
const kinds = (res) => (res.structuredContent?.errors ?? []).map((e) => e.kind);

describe('fsrb mcp from @modelcontextprotocol/sdk', () => {
  let dir, client;
  const file = (name) => path.join(dir, name);
  const read = (name) => fs.readFileSync(file(name), 'utf8');
  const write = (name, data) => { fs.mkdirSync(path.dirname(file(name)), { recursive: true }); fs.writeFileSync(file(name), data); };
  const call = (name, args = {}) => client.callTool({ name, arguments: args });

  before(async () => { dir = tmpdir(); client = await connect({ cwd: dir }); });
  after(async () => { await client.close(); });

  test('names itself fsrb and lists six tools with truthful annotations', async () => {
    const info = client.getServerVersion();
    assert.equal(info.name, 'fsrb');
    assert.ok(info.version);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), ['apply', 'edit', 'multi_edit', 'read', 'undo', 'validate']);
    for (const ro of ['validate', 'read']) {
      assert.equal(byName[ro].annotations.readOnlyHint, true, ro);
      assert.equal(byName[ro].annotations.idempotentHint, true, ro);
    }
    for (const w of ['apply', 'edit', 'multi_edit', 'undo']) {
      assert.equal(byName[w].annotations.readOnlyHint, false, w);
      assert.equal(byName[w].annotations.destructiveHint, true, w);
    }
    assert.deepEqual(byName.edit.inputSchema.required.sort(), ['new_string', 'old_string', 'path']);
    assert.equal(byName.apply.outputSchema.type, 'object');
  });

  test('validate is a dry run; a failing patch is the answer, not an error', async () => {
    write('v.txt', 'hello\n');
    let res = await call('validate', { patch: 'v.txt\n<<<<<<< SEARCH\nhello\n=======\nhi\n>>>>>>> REPLACE\n' });
    assert.equal(res.isError ?? false, false);
    assert.equal(res.structuredContent.ok, true);
    assert.equal(res.structuredContent.dry_run, true);
    assert.match(text(res), /\[DRY RUN\]/);
    assert.equal(read('v.txt'), 'hello\n');
    res = await call('validate', { patch: 'v.txt\n<<<<<<< SEARCH\nnope\n=======\nhi\n>>>>>>> REPLACE\n' });
    assert.equal(res.isError ?? false, false);
    assert.deepEqual(kinds(res), ['not-found']);
  });

  test('edit: a substring, exactly once; ambiguity names the lines', async () => {
    write('e.js', 'let a = 1;\nlet b = 1;\n');
    let res = await call('edit', { path: 'e.js', old_string: '= 1;\nlet b', new_string: '= 2;\nlet b' });
    assert.equal(res.isError ?? false, false, text(res));
    assert.equal(read('e.js'), 'let a = 2;\nlet b = 1;\n');
    res = await call('edit', { path: 'e.js', old_string: 'let', new_string: 'const' });
    assert.equal(res.isError, true);
    assert.deepEqual(kinds(res), ['ambiguous']);
    assert.match(text(res), /occurs 2 times .*lines 1, 2/);
    res = await call('edit', { path: 'e.js', old_string: 'let', new_string: 'const', replace_all: true });
    assert.equal(res.isError ?? false, false);
    assert.equal(read('e.js'), 'const a = 2;\nconst b = 1;\n');
  });

  test('edit keeps CRLF, the BOM and a missing final newline', async () => {
    write('w.txt', '\uFEFFone\r\ntwo\r\nthree');
    const res = await call('edit', { path: 'w.txt', old_string: 'two\nthree', new_string: 'two\nand\nthree' });
    assert.equal(res.isError ?? false, false, text(res));
    assert.equal(read('w.txt'), '\uFEFFone\r\ntwo\r\nand\r\nthree');
  });

  test('multi_edit is all or nothing; undo reverts the whole call', async () => {
    write('m1.txt', 'one\n');
    write('m2.txt', 'two\n');
    let res = await call('multi_edit', { edits: [
      { path: 'm1.txt', old_string: 'one', new_string: 'ONE' },
      { path: 'm2.txt', old_string: 'zwei', new_string: 'TWO' },
    ] });
    assert.equal(res.isError, true);
    assert.deepEqual(kinds(res), ['not-found']);
    assert.equal(read('m1.txt'), 'one\n');
    res = await call('multi_edit', { edits: [
      { path: 'm1.txt', old_string: 'one', new_string: 'ONE' },
      { path: 'm2.txt', old_string: 'two', new_string: 'TWO' },
    ] });
    assert.equal(res.isError ?? false, false, text(res));
    assert.equal(read('m1.txt') + read('m2.txt'), 'ONE\nTWO\n');
    res = await call('undo');
    assert.equal(res.isError ?? false, false, text(res));
    assert.equal(res.structuredContent.ok, true);
    assert.equal(read('m1.txt') + read('m2.txt'), 'one\ntwo\n');
  });

  test('edit, multi_edit and apply called twice write once: the retry is an already-applied no-op', async () => {
    write('src/utils.py', 'a = 1\nb = 2\n');
    const once = { path: 'src/utils.py', old_string: 'b = 2', new_string: 'b = 20' };
    let res = await call('edit', once);
    assert.equal(res.isError ?? false, false, text(res));
    for (const [name, args] of [
      ['edit', once],
      ['multi_edit', { edits: [once] }],
      ['apply', { patch: JSON.stringify({ file_path: 'src/utils.py', old_string: 'b = 2', new_string: 'b = 20' }) }],
    ]) {
      res = await call(name, args);
      assert.equal(res.isError ?? false, false, `${name}: ${text(res)}`);
      assert.match(text(res), /\[SUCCESS\] Nothing to do: /);
      assert.equal(res.structuredContent.ok, true);
      assert.equal(res.structuredContent.written, false);
      assert.deepEqual(res.structuredContent.applied, [1]);
      assert.deepEqual(res.structuredContent.notes.map((n) => n.kind), ['already-applied']);
      assert.equal(read('src/utils.py'), 'a = 1\nb = 20\n', name);
    }
  });

  test('apply takes tool-call JSON and is an error when nothing is written', async () => {
    write('t.txt', 'alpha\n');
    let res = await call('apply', { patch: JSON.stringify({ file_path: 't.txt', old_string: 'alp', new_string: 'ALP' }) });
    assert.equal(res.isError ?? false, false, text(res));
    assert.equal(res.structuredContent.format.name, 'tool-calls');
    assert.equal(read('t.txt'), 'ALPha\n');
    res = await call('apply', { patch: JSON.stringify({ file_path: 't.txt', old_string: 'gone', new_string: 'x' }) });
    assert.equal(res.isError, true);
    assert.equal(res.structuredContent.written, false);
  });

  test('read: numbered lines, and hashlines exactly as fsrb read --hashlines', async () => {
    write('r.txt', 'a\r\nb\nc\n');
    let res = await call('read', { path: 'r.txt', offset: 2, limit: 2 });
    assert.equal(text(res), '2\tb\n3\tc\n');
    res = await call('read', { path: 'r.txt', hashlines: true });
    assert.equal(text(res), execFileSync(fsrb, ['read', '--hashlines', 'r.txt'], { encoding: 'utf8', cwd: dir }));
  });

  test('paths outside the root are refused and nothing is written', async () => {
    const outside = tmpdir();
    fs.writeFileSync(path.join(outside, 's.txt'), 'secret\n');
    fs.symlinkSync(outside, file('link'));
    for (const p of ['../x.txt', path.join(outside, 's.txt'), 'link/s.txt']) {
      let res = await call('edit', { path: p, old_string: '', new_string: 'pwned' });
      assert.equal(res.isError, true, p);
      assert.deepEqual(kinds(res), ['outside-root'], p);
      res = await call('read', { path: p });
      assert.equal(res.isError, true, p);
    }
    assert.equal(fs.readFileSync(path.join(outside, 's.txt'), 'utf8'), 'secret\n');
    assert.equal(fs.existsSync(path.join(path.dirname(dir), 'x.txt')), false);
  });
});

test('the client\'s roots are the workspace when no --root is given', async () => {
  const project = tmpdir();
  fs.writeFileSync(path.join(project, 'p.txt'), 'in project\n');
  const client = await connect({ cwd: tmpdir(), roots: [project] });
  try {
    const res = await client.callTool({ name: 'edit', arguments: { path: 'p.txt', old_string: 'in', new_string: 'IN' } });
    assert.equal(res.isError ?? false, false, text(res));
    assert.equal(fs.readFileSync(path.join(project, 'p.txt'), 'utf8'), 'IN project\n');
  } finally {
    await client.close();
  }
});
