import { ClientCapabilities, FeatureState, StaticFeature } from 'vscode-languageclient/node';

// What VS Code's edit applier needs of the server that no LSP capability
// says, declared under experimental.fsrb (lsp/README.md, "Client
// capabilities"): it checks a run of deletes as a whole before performing
// any, so a folder the edit empties needs a no-op before its own delete.
// Declared here rather than read from clientInfo, whose name differs in
// every build of VS Code (code-server, VSCodium, …).
export class FsrbCapabilities implements StaticFeature {
  fillClientCapabilities(caps: ClientCapabilities): void {
    const experimental = (caps.experimental ?? {}) as Record<string, unknown>;
    caps.experimental = { ...experimental, fsrb: { checksDeleteRuns: true } };
  }

  getState(): FeatureState {
    return { kind: 'static' };
  }

  initialize(): void {}

  clear(): void {}
}
