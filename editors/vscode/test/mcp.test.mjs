// The MCP server the extension offers to VS Code's agent mode (src/mcp.ts):
// the bundled fsrb-mcp, then fsrb-mcp on PATH, then `fsrb mcp`, rooted at
// the workspace folder. mcp.ts is bundled with esbuild against a stub of the
// vscode module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { executable as binary, sandbox } from '../test-support/sandbox.mjs';

const box = sandbox('fsrb-mcp-test-', 'mcp.ts', () => 'module.exports = { workspace: { workspaceFolders: [] } };');
const ext = process.platform === 'win32' ? '.exe' : '';
const { tmp } = box;
let mcp;
test.before(() => { mcp = box.module; });

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
