// The server lookup of src/server.ts: the fsrb.server.path setting (a path,
// or a bare name looked up on PATH), then the bundled server, then PATH.
// server.ts is bundled with esbuild against a stub of the vscode module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { executable, sandbox } from '../test-support/sandbox.mjs';

const box = sandbox('fsrb-server-test-', 'server.ts', (tmp) =>
  `module.exports = { workspace: { workspaceFolders: [{ uri: { fsPath: ${JSON.stringify(join(tmp, 'ws'))} } }] } };`);
const { tmp } = box;
let resolveServer;
test.before(() => { ({ resolveServer } = box.module); });

function server(dir, mode = 0o755) {
  return executable(dir, 'fsrb-lsp', mode);
}

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
