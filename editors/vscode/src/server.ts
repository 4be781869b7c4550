// Finds the fsrb-lsp executable, in this order (rust-analyzer's):
//   1. the `fsrb.server.path` setting: a path, or a bare command name such as
//      `fsrb-lsp`, which is looked up on PATH (the way to prefer PATH);
//   2. the server bundled in a platform-specific package:
//      <extension>/server/<platform>-<arch>/fsrb-lsp (make vsix);
//   3. `fsrb-lsp` on PATH, then where `go install` puts it (the universal
//      package, or a platform package installed on another platform).
// The bundled server comes before PATH: it is the build the extension was
// packaged and tested with, and a forgotten `go install` must not silently
// replace it. The setting overrides both.
import * as fs from 'node:fs/promises';
import { constants } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

export type Source = 'setting' | 'bundled' | 'PATH';

export interface Resolved {
  path?: string;
  source?: Source;
  error?: string;
}

const exe = process.platform === 'win32' ? 'fsrb-lsp.exe' : 'fsrb-lsp';
const install = 'go install github.com/fsrb/fsrb/cmd/fsrb-lsp@latest';

// The folder of the bundled server: Node's names, e.g. linux-x64,
// linux-arm64, darwin-arm64, win32-x64 (scripts/package-target.sh).
export function bundledDir(extensionRoot: string, platform: string = process.platform, arch: string = process.arch): string {
  return path.join(extensionRoot, 'server', `${platform}-${arch}`);
}

// The extension's root: out/extension.js is the bundle, one level down.
export function extensionRoot(): string {
  return path.resolve(__dirname, '..');
}

export async function executable(p: string): Promise<boolean> {
  try {
    const st = await fs.stat(p);
    if (!st.isFile()) return false;
    await fs.access(p, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function expand(p: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  p = p
    .replace(/\$\{workspaceFolder\}/g, folder)
    .replace(/\$\{userHome\}/g, os.homedir())
    .replace(/\$\{env:([^}]+)\}/g, (_, name: string) => process.env[name] ?? '');
  if (p === '~' || p.startsWith('~/')) p = path.join(os.homedir(), p.slice(1));
  if (!path.isAbsolute(p) && folder) p = path.join(folder, p);
  return p;
}

// A setting with no directory part ("fsrb-lsp", "fsrb-lsp.exe").
function isCommandName(s: string): boolean {
  return !/[\\/]/.test(s) && !s.startsWith('~') && !s.includes('${');
}

export async function onPath(name: string, goDirs: boolean): Promise<string | undefined> {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  if (goDirs) {
    const gopath = process.env.GOPATH ? process.env.GOPATH.split(path.delimiter)[0] : path.join(os.homedir(), 'go');
    if (process.env.GOBIN) dirs.push(process.env.GOBIN);
    dirs.push(path.join(gopath, 'bin'), path.join(os.homedir(), 'go', 'bin'));
  }
  const names = process.platform === 'win32' && !/\.exe$/i.test(name) ? [name + '.exe', name] : [name];
  for (const d of dirs) {
    for (const n of names) {
      const p = path.join(d, n);
      if (await executable(p)) return p;
    }
  }
  return undefined;
}

export async function resolveServer(setting: string | undefined, root: string = extensionRoot()): Promise<Resolved> {
  if (setting && setting.trim() !== '') {
    const s = setting.trim();
    if (isCommandName(s)) {
      const p = await onPath(s, false);
      if (p) return { path: p, source: 'setting' };
      return {
        error: `fsrb: the language server "${s}" (setting fsrb.server.path) is not on PATH. Fix the setting, or clear it to use the server bundled with the extension.`,
      };
    }
    const p = expand(s);
    if (await executable(p)) return { path: p, source: 'setting' };
    return {
      error: `fsrb: the language server "${p}" (setting fsrb.server.path) does not exist or is not executable. Fix the setting, or clear it to use the server bundled with the extension (or fsrb-lsp from PATH).`,
    };
  }
  const bundled = path.join(bundledDir(root), exe);
  if (await executable(bundled)) return { path: bundled, source: 'bundled' };
  if (process.platform !== 'win32' && (await fs.stat(bundled).catch(() => undefined))?.isFile()) {
    // Unpacked without its mode bits: make it executable again.
    await fs.chmod(bundled, 0o755).catch(() => undefined);
    if (await executable(bundled)) return { path: bundled, source: 'bundled' };
  }
  const p = await onPath(exe, true);
  if (p) return { path: p, source: 'PATH' };
  return {
    error: `fsrb: cannot find the language server "${exe}": this package bundles none for ${process.platform}-${process.arch}, and it is not on PATH (nor in $GOPATH/bin). Install the extension's package for this platform, or install the server with \`${install}\`, or set "fsrb.server.path" to its location.`,
  };
}
