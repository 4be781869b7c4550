// The server lookup of src/server.ts: the fsrb.server.path setting (a path,
// or a bare name looked up on PATH), then the bundled server, then PATH.
// server.ts is bundled with esbuild against a stub of the vscode module.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const tmp = mkdtempSync(join(tmpdir(), 'fsrb-server-test-'));
const exe = process.platform === 'win32' ? 'fsrb-lsp.exe' : 'fsrb-lsp';
const saved = { PATH: process.env.PATH, GOPATH: process.env.GOPATH, GOBIN: process.env.GOBIN, HOME: process.env.HOME };
let resolveServer;

function server(dir, mode = 0o755) {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, exe);
  writeFileSync(p, '#!/bin/sh\n');
  chmodSync(p, mode);
  return p;
}

before(() => {
  const stub = join(tmp, 'vscode-stub.cjs');
  writeFileSync(stub, `module.exports = { workspace: { workspaceFolders: [{ uri: { fsPath: ${JSON.stringify(join(tmp, 'ws'))} } }] } };`);
  const out = join(tmp, 'server.cjs');
  buildSync({
    entryPoints: [join(here, '..', 'src', 'server.ts')],
    bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'error',
    alias: { vscode: stub },
  });
  ({ resolveServer } = require(out));
  // No fsrb-lsp anywhere but where a test puts one.
  process.env.PATH = join(tmp, 'path');
  process.env.GOPATH = join(tmp, 'gopath');
  delete process.env.GOBIN;
  process.env.HOME = join(tmp, 'home');
});

after(() => {
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  rmSync(tmp, { recursive: true, force: true });
});

test('no setting: the bundled server comes before PATH', async () => {
  const ext = join(tmp, 'ext1');
  const bundled = server(join(ext, 'server', `${process.platform}-${process.arch}`));
  server(join(tmp, 'path'));
  assert.deepEqual(await resolveServer('', ext), { path: bundled, source: 'bundled' });
});

test('no setting, no bundled server (universal package): PATH', async () => {
  const onPath = server(join(tmp, 'path'));
  assert.deepEqual(await resolveServer(undefined, join(tmp, 'ext-none')), { path: onPath, source: 'PATH' });
});

test('a server bundled for another platform is not used', async () => {
  const ext = join(tmp, 'ext2');
  server(join(ext, 'server', 'plan9-mips'));
  const onPath = server(join(tmp, 'path'));
  assert.deepEqual(await resolveServer('', ext), { path: onPath, source: 'PATH' });
});

test('the setting overrides the bundled server: a path', async () => {
  const ext = join(tmp, 'ext3');
  server(join(ext, 'server', `${process.platform}-${process.arch}`));
  const mine = server(join(tmp, 'mine'));
  assert.deepEqual(await resolveServer(mine, ext), { path: mine, source: 'setting' });
  // relative to the workspace folder
  const rel = server(join(tmp, 'ws', 'bin'));
  assert.deepEqual(await resolveServer('bin/fsrb-lsp', ext), { path: rel, source: 'setting' });
});

test('the setting overrides the bundled server: a bare name means PATH', async () => {
  const ext = join(tmp, 'ext4');
  server(join(ext, 'server', `${process.platform}-${process.arch}`));
  const onPath = server(join(tmp, 'path'));
  assert.deepEqual(await resolveServer('fsrb-lsp', ext), { path: onPath, source: 'setting' });
  const r = await resolveServer('fsrb-lsp-nowhere', ext);
  assert.equal(r.path, undefined);
  assert.match(r.error, /"fsrb-lsp-nowhere" \(setting fsrb.server.path\) is not on PATH/);
});

test('a wrong setting is an error, not a silent fallback', async () => {
  const ext = join(tmp, 'ext5');
  server(join(ext, 'server', `${process.platform}-${process.arch}`));
  const r = await resolveServer(join(tmp, 'missing', 'fsrb-lsp'), ext);
  assert.equal(r.path, undefined);
  assert.match(r.error, /does not exist or is not executable/);
});

test('nothing anywhere: an error that says how to install', async () => {
  rmSync(join(tmp, 'path'), { recursive: true, force: true });
  const r = await resolveServer('', join(tmp, 'ext-none'));
  assert.equal(r.path, undefined);
  assert.match(r.error, /bundles none for .*go install github.com\/fsrb\/fsrb\/cmd\/fsrb-lsp@latest/);
});

test('a bundled server unpacked without its executable bit is made executable', { skip: process.platform === 'win32' }, async () => {
  const ext = join(tmp, 'ext6');
  const bundled = server(join(ext, 'server', `${process.platform}-${process.arch}`), 0o644);
  assert.deepEqual(await resolveServer('', ext), { path: bundled, source: 'bundled' });
});
