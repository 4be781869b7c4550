// fsrb's MCP server for VS Code's agent mode, with no .vscode/mcp.json: the
// extension is an MCP server definition provider (package.json,
// contributes.mcpServerDefinitionProviders) that names the fsrb-mcp bundled
// beside fsrb-lsp, rooted at the workspace folder. fsrb-mcp is the server
// `fsrb mcp` execs, so naming it directly needs no fsrb binary at all.
// Lookup, as for the language server: bundled first (the build packaged and
// tested with the extension), then fsrb-mcp on PATH, then `fsrb mcp`.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { bundledDir, executable, extensionRoot, onPath } from './server';

export const mcpProviderId = 'fsrb.mcp';

export interface McpCommand {
  command: string;
  args: string[];
  source: 'bundled' | 'PATH';
}

const ext = process.platform === 'win32' ? '.exe' : '';

export async function resolveMcp(root: string = extensionRoot()): Promise<McpCommand | undefined> {
  const bundled = path.join(bundledDir(root), 'fsrb-mcp' + ext);
  if (await executable(bundled)) return { command: bundled, args: [], source: 'bundled' };
  const mcp = await onPath('fsrb-mcp' + ext, true);
  if (mcp) return { command: mcp, args: [], source: 'PATH' };
  const fsrb = await onPath('fsrb' + ext, true);
  if (fsrb) return { command: fsrb, args: ['mcp'], source: 'PATH' };
  return undefined;
}

// The definition of the server for one workspace folder: its edits are
// confined to the folder (--root), and it runs there.
export function mcpDefinition(found: McpCommand, folder: string): { command: string; args: string[]; cwd: string } {
  return { command: found.command, args: [...found.args, '--root', folder], cwd: folder };
}

// The parts of VS Code's MCP API (1.101 and newer) this extension uses: the
// @types/vscode it builds with is older, as the oldest VS Code it supports.
interface McpStdioServerDefinitionCtor {
  new (label: string, command: string, args?: string[], env?: Record<string, string | number | null>, version?: string): { cwd?: vscode.Uri };
}
interface McpApi {
  McpStdioServerDefinition?: McpStdioServerDefinitionCtor;
  lm?: {
    registerMcpServerDefinitionProvider?(
      id: string,
      provider: {
        onDidChangeMcpServerDefinitions?: vscode.Event<void>;
        provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<unknown[]>;
      },
    ): vscode.Disposable;
  };
}

/**
 * Registers the provider where the workbench has the API; elsewhere it does
 * nothing (agent mode is not there either). Each answer is logged, with the
 * command, arguments and folder VS Code will start.
 */
export function registerMcpProvider(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): void {
  const api = vscode as unknown as McpApi;
  const Definition = api.McpStdioServerDefinition;
  const register = api.lm?.registerMcpServerDefinitionProvider;
  if (!Definition || !register) {
    output.appendLine(`[fsrb] VS Code ${vscode.version} has no MCP server definition API: no fsrb tools for agent mode`);
    return;
  }
  const changed = new vscode.EventEmitter<void>();
  const version = String(context.extension.packageJSON.version ?? '');
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    register.call(api.lm, mcpProviderId, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: async () => {
        const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
        // With no folder there is no root to confine the edits to.
        if (!folder) return [];
        const found = await resolveMcp();
        if (!found) {
          output.appendLine('[fsrb] MCP: no fsrb-mcp bundled, nor fsrb-mcp or fsrb on PATH: no fsrb tools for agent mode');
          return [];
        }
        const d = mcpDefinition(found, folder.uri.fsPath);
        const server = new Definition('fsrb', d.command, d.args, undefined, version);
        server.cwd = vscode.Uri.file(d.cwd);
        output.appendLine(`[fsrb] MCP server for agent mode (${found.source}): ${JSON.stringify(d)}`);
        return [server];
      },
    }),
  );
}
