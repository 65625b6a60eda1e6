/**
 * Enough of the VS Code host for vscode-languageclient to start a real server: events,
 * registrations that do nothing, documents the test opens, an output channel that records.
 * Everything else comes from the small fake in ./vscode.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import * as fake from './vscode';

export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

type Listener<T> = (value: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(value: T): void {
    for (const l of [...this.listeners]) {
      l(value);
    }
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** A WorkspaceEdit that records what the library puts in it. */
export class WorkspaceEdit {
  readonly operations: { op: string; uri: string; text?: string }[] = [];
  createFile(uri: fake.Uri): void {
    this.operations.push({ op: 'create', uri: uri.toString() });
  }
  renameFile(from: fake.Uri): void {
    this.operations.push({ op: 'rename', uri: from.toString() });
  }
  deleteFile(uri: fake.Uri): void {
    this.operations.push({ op: 'delete', uri: uri.toString() });
  }
  replace(uri: fake.Uri, _range: unknown, text: string): void {
    this.operations.push({ op: 'replace', uri: uri.toString(), text });
  }
  insert(uri: fake.Uri, _position: unknown, text: string): void {
    this.operations.push({ op: 'insert', uri: uri.toString(), text });
  }
  set(uri: fake.Uri, edits: { newText: string }[]): void {
    for (const e of edits) {
      this.operations.push({ op: 'replace', uri: uri.toString(), text: e.newText });
    }
  }
}

/** Code action kinds as VS Code builds them (`Empty.append('refactor')...`). */
export class CodeActionKind {
  static readonly Empty = new CodeActionKind('');
  static readonly QuickFix = new CodeActionKind('quickfix');
  static readonly Refactor = new CodeActionKind('refactor');
  static readonly RefactorExtract = new CodeActionKind('refactor.extract');
  static readonly RefactorInline = new CodeActionKind('refactor.inline');
  static readonly RefactorRewrite = new CodeActionKind('refactor.rewrite');
  static readonly Source = new CodeActionKind('source');
  static readonly SourceOrganizeImports = new CodeActionKind('source.organizeImports');
  static readonly SourceFixAll = new CodeActionKind('source.fixAll');
  constructor(readonly value: string) {}
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other: CodeActionKind): boolean {
    return this.value === '' || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other: CodeActionKind): boolean {
    return this.contains(other) || other.contains(this);
  }
}

export class CodeAction {
  edit: unknown;
  command: unknown;
  constructor(
    readonly title: string,
    public kind?: CodeActionKind,
  ) {}
}

/** Providers vscode-languageclient registered, by kind of feature. */
export const providers = new Map<string, any[]>();

/** A text document the test opens. */
export class FakeDocument {
  version = 1;
  isDirty = false;
  isClosed = false;
  isUntitled = false;
  readonly eol = 1;
  constructor(
    readonly uri: fake.Uri,
    readonly languageId: string,
    private text: string,
  ) {}
  get fileName(): string {
    return this.uri.fsPath;
  }
  getText(): string {
    return this.text;
  }
  get lineCount(): number {
    return this.text.split('\n').length;
  }
  async save(): Promise<boolean> {
    this.isDirty = false;
    return true;
  }
}

export const events = {
  open: new EventEmitter<FakeDocument>(),
  close: new EventEmitter<FakeDocument>(),
  change: new EventEmitter<unknown>(),
  save: new EventEmitter<FakeDocument>(),
  willSave: new EventEmitter<unknown>(),
  configuration: new EventEmitter<unknown>(),
  folders: new EventEmitter<unknown>(),
  activeEditor: new EventEmitter<unknown>(),
  tabs: new EventEmitter<unknown>(),
  trust: new EventEmitter<void>(),
};

/** `workspace.isTrusted` of the stand-in host (tests set it before activating). */
export const workspaceTrust = { trusted: true };
/** The open workspace folders (none unless a test adds them). */
export const folders: { uri: any; name: string; index: number }[] = [];

export const log: string[] = [];
export const registered = new Map<string, (...args: any[]) => any>();
export const documents: FakeDocument[] = [];
export const statusItems: fake.FakeStatusBarItem[] = [];

const event = <T>(emitter: EventEmitter<T>) => emitter.event;
const nothing = (): Disposable => new Disposable();

function outputChannel(name: string): any {
  const write = (level: string) => (message: string) => log.push(`[${level}] ${message}`);
  return {
    name,
    logLevel: 2,
    onDidChangeLogLevel: nothing,
    append: (v: string) => log.push(v),
    appendLine: (v: string) => log.push(v),
    replace: nothing,
    clear: nothing,
    show: nothing,
    hide: nothing,
    dispose: nothing,
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: (e: unknown) => log.push(`[error] ${e instanceof Error ? e.message : String(e)}`),
  };
}

/** The module returned for `require('vscode')` by the activation test. */
export function hostModule(): any {
  const languages = new Proxy(
    {
      match(selector: any, document: FakeDocument): number {
        const list = Array.isArray(selector) ? selector : [selector];
        return list.some((s) => (typeof s === 'string' ? s : s.language) === document.languageId &&
          (typeof s === 'string' || !s.scheme || s.scheme === document.uri.scheme))
          ? 10
          : 0;
      },
      createDiagnosticCollection: () => ({ set: nothing, delete: nothing, clear: nothing, dispose: nothing, forEach: nothing }),
    } as Record<string, any>,
    {
      get: (target, name: string) =>
        target[name] ??
        (name.startsWith('register')
          ? (_selector: unknown, provider: unknown) => {
              providers.set(name, [...(providers.get(name) ?? []), provider]);
              return new Disposable();
            }
          : nothing),
    },
  );
  const workspace = {
    ...fake.workspace,
    get textDocuments() {
      return documents;
    },
    get workspaceFolders() {
      return folders.length ? folders : undefined;
    },
    get isTrusted() {
      return workspaceTrust.trusted;
    },
    onDidGrantWorkspaceTrust: event(events.trust),
    getConfiguration: fake.workspace.getConfiguration,
    applyEdit: fake.workspace.applyEdit,
    onDidOpenTextDocument: event(events.open),
    onDidCloseTextDocument: event(events.close),
    onDidChangeTextDocument: event(events.change),
    onDidSaveTextDocument: event(events.save),
    onWillSaveTextDocument: event(events.willSave),
    onDidChangeConfiguration: event(events.configuration),
    onDidChangeWorkspaceFolders: event(events.folders),
    createFileSystemWatcher: () => ({ onDidCreate: nothing, onDidChange: nothing, onDidDelete: nothing, dispose: nothing }),
    getWorkspaceFolder: (uri: { fsPath: string }) =>
      folders.find((f) => uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(f.uri.fsPath + '/')),
  };
  const window = Object.assign(Object.create(fake.window), {
    createOutputChannel: (name: string) => outputChannel(name),
    createStatusBarItem: () => {
      const item = new fake.FakeStatusBarItem();
      statusItems.push(item);
      return item;
    },
    onDidChangeActiveTextEditor: event(events.activeEditor),
    tabGroups: { all: [], onDidChangeTabs: event(events.tabs), onDidChangeTabGroups: nothing },
    withProgress: async (_options: unknown, task: (p: unknown, t: unknown) => unknown) =>
      task({ report: nothing }, { isCancellationRequested: false, onCancellationRequested: nothing }),
    showTextDocument: async () => undefined,
  });
  const commands = {
    registerCommand(id: string, handler: (...args: any[]) => any): Disposable {
      if (registered.has(id)) {
        throw new Error(`command '${id}' already exists`);
      }
      registered.set(id, handler);
      return new Disposable(() => registered.delete(id));
    },
    executeCommand: async (id: string, ...args: any[]) => {
      const handler = registered.get(id) ?? fake.state.commandHandlers.get(id);
      if (!handler) {
        throw new Error(`command '${id}' not found`);
      }
      return handler(...args);
    },
  };
  const base: Record<string, any> = {
    ...fake,
    Disposable,
    EventEmitter,
    WorkspaceEdit,
    CodeAction,
    CodeActionKind,
    CodeActionTriggerKind: { Invoke: 1, Automatic: 2 },
    languages,
    workspace,
    window,
    commands,
    env: { language: 'en', appName: 'Fake Code', machineId: 'test', openExternal: async () => true },
    version: '1.82.0',
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  };
  return new Proxy(base, {
    get(target, name) {
      if (typeof name !== 'string' || name in target) {
        return target[name as string];
      }
      // Classes and enums the library only extends or reads: empty stand-ins.
      return /^[A-Z]/.test(name) ? class {} : undefined;
    },
  });
}
