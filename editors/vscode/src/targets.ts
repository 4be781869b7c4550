// The server must never act on a stale view: besides the patches, it has to
// know the unsaved text of every file a patch names (after "Apply all", the
// edited files are dirty buffers until Save All). So every `file` document is
// synchronized (didOpen/didChange/didSave/didClose), while the features
// (lenses, code actions, hover, …) stay on patch documents: the client's
// documentSelector is the patches', and this feature registers the
// synchronization features a second time for a wider selector.
import * as vscode from 'vscode';
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  DocumentSelector,
  FeatureState,
  LanguageClient,
  ServerCapabilities,
  StaticFeature,
} from 'vscode-languageclient/node';

export const targetSelector: DocumentSelector = [{ scheme: 'file' }];

export class TargetSync implements StaticFeature {
  constructor(private client: LanguageClient) {}

  fillClientCapabilities(): void {}

  getState(): FeatureState {
    return { kind: 'static' };
  }

  // Runs after the built-in features (it is registered after them): each
  // synchronization feature gets one more registration, for every file.
  initialize(capabilities: ServerCapabilities): void {
    const c = this.client;
    c.getFeature(DidOpenTextDocumentNotification.method).initialize(capabilities, targetSelector);
    c.getFeature(DidChangeTextDocumentNotification.method).initialize(capabilities, targetSelector);
    c.getFeature(DidSaveTextDocumentNotification.method).initialize(capabilities, targetSelector);
    c.getFeature(DidCloseTextDocumentNotification.method).initialize(capabilities, targetSelector);
  }

  clear(): void {}
}

/**
 * didOpen, didSave and didClose go out once per document whatever the number
 * of selectors that match it, but didChange goes out once per matching
 * registration: a patch on disk matches both the patches' selector and the
 * files'. The same change event must reach the server once (incremental
 * changes applied twice corrupt its copy).
 */
export function changeOnce() {
  const sent = new WeakSet<vscode.TextDocumentChangeEvent>();
  return (event: vscode.TextDocumentChangeEvent, next: (e: vscode.TextDocumentChangeEvent) => Promise<void>): Promise<void> => {
    if (sent.has(event)) return Promise.resolve();
    sent.add(event);
    return next(event);
  };
}
