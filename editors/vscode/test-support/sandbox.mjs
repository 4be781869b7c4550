// What the unit tests of the extension's lookups (server.test.mjs,
// mcp.test.mjs) share: a temporary folder with an environment of its own
// (no PATH, GOPATH, GOBIN or HOME of the machine's, restored after), a
// module of src/ bundled with esbuild against a stub of the vscode module,
// and executable files to find. Outside test/, which node --test runs
// whole.
import { before, after } from 'node:test';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const require = createRequire(import.meta.url);

// sandbox registers the before and after hooks of a test file: before,
// src/<entry> is bundled against the vscode stub stub(tmp) returns (the
// source of a CommonJS module) and loaded into box.module, and the
// environment points into box.tmp.
export function sandbox(prefix, entry, stub) {
  const box = { tmp: mkdtempSync(join(tmpdir(), prefix)), module: undefined };
  const saved = { PATH: process.env.PATH, GOPATH: process.env.GOPATH, GOBIN: process.env.GOBIN, HOME: process.env.HOME };
  before(() => {
    const stubFile = join(box.tmp, 'vscode-stub.cjs');
    writeFileSync(stubFile, stub(box.tmp));
    const out = join(box.tmp, entry.replace(/\.ts$/, '.cjs'));
    buildSync({
      entryPoints: [join(src, entry)],
      bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'error',
      alias: { vscode: stubFile },
    });
    box.module = require(out);
    process.env.PATH = join(box.tmp, 'path');
    process.env.GOPATH = join(box.tmp, 'gopath');
    delete process.env.GOBIN;
    process.env.HOME = join(box.tmp, 'home');
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    rmSync(box.tmp, { recursive: true, force: true });
  });
  return box;
}

// executable makes an empty script dir/name (name.exe on Windows) with
// the given mode, and returns its path.
export function executable(dir, name, mode = 0o755) {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name + (process.platform === 'win32' ? '.exe' : ''));
  writeFileSync(p, '#!/bin/sh\n');
  chmodSync(p, mode);
  return p;
}
