// Finds the fsrb-lsp executable: the `fsrb.server.path` setting, else
// `fsrb-lsp` on PATH, else where `go install` puts it.
import * as fs from 'node:fs/promises';
import { constants } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface Resolved {
  path?: string;
  error?: string;
}

const exe = process.platform === 'win32' ? 'fsrb-lsp.exe' : 'fsrb-lsp';
const install = 'go install github.com/fsrb/fsrb/cmd/fsrb-lsp@latest';

async function executable(p: string): Promise<boolean> {
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

export async function resolveServer(setting: string | undefined): Promise<Resolved> {
  if (setting && setting.trim() !== '') {
    const p = expand(setting.trim());
    if (await executable(p)) return { path: p };
    return {
      error: `fsrb: the language server "${p}" (setting fsrb.server.path) does not exist or is not executable. Fix the setting, or clear it to use fsrb-lsp from PATH (install: ${install}).`,
    };
  }
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const gopath = process.env.GOPATH ? process.env.GOPATH.split(path.delimiter)[0] : path.join(os.homedir(), 'go');
  if (process.env.GOBIN) dirs.push(process.env.GOBIN);
  dirs.push(path.join(gopath, 'bin'), path.join(os.homedir(), 'go', 'bin'));
  for (const d of dirs) {
    const p = path.join(d, exe);
    if (await executable(p)) return { path: p };
  }
  return {
    error: `fsrb: cannot find the language server "${exe}" on PATH (nor in $GOPATH/bin). Install it with \`${install}\`, or set "fsrb.server.path" to its location.`,
  };
}
