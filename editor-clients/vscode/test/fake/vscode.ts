/**
 * A small stand-in for the `vscode` module: just the API the extension's logic uses, with
 * scripted answers for pickers and input boxes and a record of what was shown.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static parse(value: string): Uri {
    const match = /^([a-z][a-z0-9+.-]*):(?:\/\/[^/]*)?(.*)$/i.exec(value);
    if (!match) {
      throw new Error(`not a URI: ${value}`);
    }
    return new Uri(match[1], decodeURIComponent(match[2]));
  }
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return this.scheme === 'file' ? `file://${encodeURI(this.path)}` : `${this.scheme}:${this.path}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

export class Selection extends Range {
  get anchor(): Position {
    return this.start;
  }
  get active(): Position {
    return this.end;
  }
}

export class CodeActionKind {
  static readonly RefactorRewrite = new CodeActionKind('refactor.rewrite');
  static readonly Source = new CodeActionKind('source');
  constructor(readonly value: string) {}
}

export class WorkspaceEdit {
  readonly marker = 'edit';
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export interface Shown {
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface QuickPickCall {
  items: any[];
  options: any;
}

/** Everything the tests script or inspect. */
export const state = {
  shown: [] as Shown[],
  quickPicks: [] as QuickPickCall[],
  /** Answers to quick picks, in order: a function choosing among the items, or undefined (Escape). */
  pickAnswers: [] as (((items: any[]) => any) | undefined)[],
  inputAnswers: [] as (string | undefined)[],
  inputOptions: [] as any[],
  /** Settings by section, then by scope URI string ('' = no scope). */
  settings: new Map<string, Map<string, Record<string, unknown>>>(),
  /** Handlers for `commands.executeCommand`, by id. */
  commandHandlers: new Map<string, (...args: any[]) => any>(),
  executed: [] as { command: string; args: any[] }[],
  appliedEdits: [] as any[],
  applyEditResult: true,
  activeTextEditor: undefined as any,
  textDocuments: [] as any[],
};

export function reset(): void {
  state.shown = [];
  state.quickPicks = [];
  state.pickAnswers = [];
  state.inputAnswers = [];
  state.inputOptions = [];
  state.settings = new Map();
  state.commandHandlers = new Map();
  state.executed = [];
  state.appliedEdits = [];
  state.applyEditResult = true;
  state.activeTextEditor = undefined;
  state.textDocuments = [];
}

/** Sets `section` settings for `scope` (a URI string; '' for the user/workspace level). */
export function setSettings(section: string, scope: string, values: Record<string, unknown>): void {
  let scopes = state.settings.get(section);
  if (scopes === undefined) {
    scopes = new Map();
    state.settings.set(section, scopes);
  }
  scopes.set(scope, values);
}

function show(level: Shown['level']) {
  return async (message: string, ..._items: unknown[]): Promise<undefined> => {
    state.shown.push({ level, message });
    return undefined;
  };
}

export const window = {
  get activeTextEditor(): any {
    return state.activeTextEditor;
  },
  showInformationMessage: show('info'),
  showWarningMessage: show('warning'),
  showErrorMessage: show('error'),
  async showQuickPick(items: any[] | Promise<any[]>, options?: any): Promise<any> {
    const resolved = await items;
    state.quickPicks.push({ items: resolved, options });
    if (state.pickAnswers.length === 0) {
      throw new Error('unexpected quick pick: no scripted answer');
    }
    const answer = state.pickAnswers.shift();
    return answer === undefined ? undefined : answer(resolved);
  },
  async showInputBox(options?: any): Promise<string | undefined> {
    state.inputOptions.push(options);
    if (state.inputAnswers.length === 0) {
      throw new Error('unexpected input box: no scripted answer');
    }
    return state.inputAnswers.shift();
  },
};

class Configuration {
  constructor(
    private readonly values: Record<string, unknown>,
  ) {}
  get<T>(key: string, defaultValue?: T): T | undefined {
    return key in this.values ? (this.values[key] as T) : defaultValue;
  }
  has(key: string): boolean {
    return key in this.values;
  }
}

export const workspace = {
  get textDocuments(): any[] {
    return state.textDocuments;
  },
  getConfiguration(section?: string, scope?: Uri): Configuration {
    const scopes = state.settings.get(section ?? '');
    const base = scopes?.get('') ?? {};
    const scoped = scope === undefined ? {} : (scopes?.get(scope.toString()) ?? {});
    return new Configuration({ ...base, ...scoped });
  },
  async applyEdit(edit: unknown): Promise<boolean> {
    state.appliedEdits.push(edit);
    return state.applyEditResult;
  },
};

export const commands = {
  async executeCommand(command: string, ...args: any[]): Promise<any> {
    state.executed.push({ command, args });
    const handler = state.commandHandlers.get(command);
    if (handler === undefined) {
      throw new Error(`command '${command}' not found`);
    }
    return handler(...args);
  },
};

/** A status bar item that only records what it was given. */
export class FakeStatusBarItem {
  text = '';
  tooltip: string | undefined;
  command: string | undefined;
  name: string | undefined;
  visible = false;
  disposed = false;
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
  }
}

/** SecretStorage kept in memory. */
export class FakeSecretStorage {
  readonly values = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}
