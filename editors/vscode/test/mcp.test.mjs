// The MCP server the extension offers to VS Code's agent mode (src/mcp.ts):
// the bundled fsrb-mcp, then fsrb-mcp on PATH, then `fsrb mcp`, rooted at
// the workspace folder. mcp.ts is bundled with esbuild against a stub of the
// vscode module.
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
const tmp = mkdtempSync(join(tmpdir(), 'fsrb-mcp-test-'));
const ext = process.platform === 'win32' ? '.exe' : '';
const saved = { PATH: process.env.PATH, GOPATH: process.env.GOPATH, GOBIN: process.env.GOBIN, HOME: process.env.HOME };
let mcp;

function binary(dir, name) {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name + ext);
  writeFileSync(p, '#!/bin/sh\n');
  chmodSync(p, 0o755);
  return p;
}

before(() => {
  const stub = join(tmp, 'vscode-stub.cjs');
  writeFileSync(stub, 'module.exports = { workspace: { workspaceFolders: [] } };');
  const out = join(tmp, 'mcp.cjs');
  buildSync({
    entryPoints: [join(here, '..', 'src', 'mcp.ts')],
    bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'error',
    alias: { vscode: stub },
  });
  mcp = require(out);
  process.env.PATH = join(tmp, 'path');
  process.env.GOPATH = join(tmp, 'gopath');
  delete process.env.GOBIN;
  process.env.HOME = join(tmp, 'home');
});

after(() => {
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  rmSync(tmp, { recursive: true, force: true });
});

test('the bundled fsrb-mcp comes first, named directly, rooted at the folder', async () => {
  const root = join(tmp, 'ext1');
  const bundled = binary(join(root, 'server', `${process.platform}-${process.arch}`), 'fsrb-mcp');
  binary(join(tmp, 'path'), 'fsrb-mcp');
  const found = await mcp.resolveMcp(root);
  assert.deepEqual(found, { command: bundled, args: [], source: 'bundled' });
  assert.deepEqual(mcp.mcpDefinition(found, '/work/project'), { command: bundled, args: ['--root', '/work/project'], cwd: '/work/project' });
});

test('no bundled fsrb-mcp: fsrb-mcp on PATH, else fsrb mcp', async () => {
  const none = join(tmp, 'ext-none');
  const fsrb = binary(join(tmp, 'path'), 'fsrb');
  const onPath = join(tmp, 'path', 'fsrb-mcp' + ext);
  assert.deepEqual(await mcp.resolveMcp(none), { command: onPath, args: [], source: 'PATH' });
  rmSync(onPath);
  const found = await mcp.resolveMcp(none);
  assert.deepEqual(found, { command: fsrb, args: ['mcp'], source: 'PATH' });
  assert.deepEqual(mcp.mcpDefinition(found, '/p').args, ['mcp', '--root', '/p']);
});

test('nothing anywhere: no server', async () => {
  rmSync(join(tmp, 'path'), { recursive: true, force: true });
  assert.equal(await mcp.resolveMcp(join(tmp, 'ext-none')), undefined);
});
