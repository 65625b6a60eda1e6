/**
 * The extension's commands. Each one is thin: it asks the server (through `ServerApi`), shows
 * a picker or a message, and tells the server what the writer chose.
 */
import * as vscode from 'vscode';

import {
  parseImproveResult,
  parseSetResult,
  parseStylesInfo,
  parseUsage,
  ServerApi,
  StylesInfo,
  UsageInfo,
} from './protocol';

/** The extension's own command ids (contributed in package.json). */
export const COMMAND_IDS = {
  correctSelection: 'rephrase.correctSelection',
  correctDocument: 'rephrase.correctDocument',
  improveSelection: 'rephrase.improveSelection',
  showAlternatives: 'rephrase.showAlternatives',
  chooseStyle: 'rephrase.chooseStyle',
  chooseTone: 'rephrase.chooseTone',
  chooseLanguage: 'rephrase.chooseLanguage',
  setApiKey: 'rephrase.setApiKey',
  showUsage: 'rephrase.showUsage',
  restartServer: 'rephrase.restartServer',
} as const;

/** The value meaning "no particular style/tone": the server clears the setting. */
export const DEFAULT_CHOICE = 'default';

export type StyleKind = 'writingStyle' | 'tone';

interface ValueItem extends vscode.QuickPickItem {
  value: string | null;
}

const KIND_TEXT: Record<StyleKind, { noun: string; set: string; list: keyof StylesInfo }> = {
  writingStyle: { noun: 'writing style', set: 'rephrase.setStyle', list: 'writingStyles' },
  tone: { noun: 'tone', set: 'rephrase.setTone', list: 'tones' },
};

async function listStyles(api: ServerApi, uri: vscode.Uri): Promise<StylesInfo> {
  return parseStylesInfo(await api.executeCommand('rephrase.listStyles', [uri.toString()]));
}

/** The server names files by URI; accept a plain path too. */
function toUri(file: string): vscode.Uri {
  return /^[a-z][a-z0-9+.-]+:/i.test(file) ? vscode.Uri.parse(file) : vscode.Uri.file(file);
}

/** " (saved in <path>)" for the project file the server changed, shown as a path. */
export function where(file: string | null): string {
  if (!file) {
    return '';
  }
  let shown = file;
  try {
    const uri = toUri(file);
    shown = uri.scheme === 'file' ? uri.fsPath : file;
  } catch {
    shown = file;
  }
  return ` (saved in ${shown})`;
}

/**
 * "Rephrase: Choose Writing Style…" / "Choose Tone…": a quick pick filled from
 * `rephrase.listStyles` for the document, then `rephrase.setStyle` / `rephrase.setTone`.
 * Returns the chosen value, or undefined when nothing was set.
 */
export async function chooseStyle(
  api: ServerApi,
  uri: vscode.Uri,
  kind: StyleKind,
): Promise<string | undefined> {
  const text = KIND_TEXT[kind];
  const info = await listStyles(api, uri);
  const language = info.language ?? 'this document';
  if (!info.supported) {
    void vscode.window.showWarningMessage(
      info.reason ?? `Rephrase: ${language} has no writing styles or tones.`,
    );
    return undefined;
  }
  const values = info[text.list] as string[];
  if (values.length === 0) {
    void vscode.window.showWarningMessage(`Rephrase: no ${text.noun} is available for ${language}.`);
    return undefined;
  }
  const current = kind === 'writingStyle' ? info.current.writingStyle : info.current.tone;
  const items: ValueItem[] = values.map((value) => ({
    label: value,
    value,
    description: value === current ? 'current' : undefined,
  }));
  items.push({
    label: DEFAULT_CHOICE,
    value: DEFAULT_CHOICE,
    description: current ? `no particular ${text.noun}` : `no particular ${text.noun} (current)`,
  });
  if (kind === 'tone' && info.current.writingStyle) {
    items[0].detail = `replaces the writing style "${info.current.writingStyle}"`;
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: `Rephrase: ${text.noun} for ${language}`,
    placeHolder: `Choose a ${text.noun}`,
  });
  if (picked === undefined || picked.value === null) {
    return undefined;
  }
  const result = parseSetResult(
    await api.executeCommand(text.set, [uri.toString(), picked.value]),
    text.set,
  );
  if (!result.applied) {
    void vscode.window.showWarningMessage(`Rephrase: the ${text.noun} was not changed.`);
    return undefined;
  }
  await saveProjectFile(result.file);
  void vscode.window.showInformationMessage(
    picked.value === DEFAULT_CHOICE
      ? `Rephrase: ${text.noun} cleared${where(result.file)}.`
      : `Rephrase: ${text.noun} set to "${picked.value}"${where(result.file)}.`,
  );
  return picked.value;
}

/** "Rephrase: Set Language…": the targets from the server plus "detect automatically". */
export async function chooseLanguage(api: ServerApi, uri: vscode.Uri): Promise<string | null | undefined> {
  const info = await listStyles(api, uri);
  const items: ValueItem[] = [
    {
      label: 'Detect automatically',
      value: null,
      description: info.languageSource === 'detected' && info.language ? `now ${info.language}` : undefined,
    },
    ...info.targets.map((lang) => ({
      label: lang,
      value: lang,
      description: lang === info.language ? 'current' : undefined,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Rephrase: language of the document',
    placeHolder: 'Choose the language to write in',
  });
  if (picked === undefined) {
    return undefined;
  }
  const result = parseSetResult(
    await api.executeCommand('rephrase.setLanguage', [uri.toString(), picked.value]),
    'rephrase.setLanguage',
  );
  if (!result.applied) {
    void vscode.window.showWarningMessage('Rephrase: the language was not changed.');
    return undefined;
  }
  await saveProjectFile(result.file);
  void vscode.window.showInformationMessage(
    picked.value === null
      ? `Rephrase: language will be detected${where(result.file)}.`
      : `Rephrase: language set to ${picked.value}${where(result.file)}.`,
  );
  return picked.value;
}

/**
 * Saves `.rephrase.toml` after the server changed it through `workspace/applyEdit` (which leaves
 * it modified in the editor), unless `rephrase.saveProjectFile` is off. True when it was saved.
 */
export async function saveProjectFile(file: string | null): Promise<boolean> {
  if (!file || vscode.workspace.getConfiguration('rephrase').get<boolean>('saveProjectFile') === false) {
    return false;
  }
  const wanted = toUri(file).toString();
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === wanted);
  if (document === undefined || !document.isDirty) {
    return false;
  }
  return document.save();
}

/** The server commands of the quick fixes that change `.rephrase.toml` through an edit. */
const PROJECT_FILE_COMMANDS = new Set(['rephrase.addWord', 'rephrase.disableRule']);

/** The project files (`.rephrase.toml`) with unsaved changes, as URI strings. */
function dirtyProjectFiles(): Set<string> {
  return new Set(
    vscode.workspace.textDocuments
      .filter((d) => d.isDirty && d.uri.path.endsWith('/.rephrase.toml'))
      .map((d) => d.uri.toString()),
  );
}

/**
 * `middleware.executeCommand`: after the quick fix *Add ‘word’ to the project's words* or
 * *Turn off ‘code’ in this project* changed `.rephrase.toml` (an edit VS Code leaves unsaved), saves
 * it as the set commands do; while a `.rephrase.toml` has unsaved changes, refuses the fix.
 */
export async function executeCommandMiddleware(
  command: string,
  args: unknown[],
  next: (command: string, args: unknown[]) => unknown,
): Promise<unknown> {
  if (!PROJECT_FILE_COMMANDS.has(command)) {
    return next(command, args);
  }
  const before = dirtyProjectFiles();
  if (before.size > 0) {
    // The server edits the file as it is on disk (the editor does not share this buffer with
    // it): its edit, applied over unsaved changes, could mangle them. Refuse, as Neovim does.
    const names = [...before].map((u) => vscode.Uri.parse(u).fsPath).join(', ');
    const reason = `${names} has unsaved changes: save or undo them, then choose the quick fix again.`;
    void vscode.window.showWarningMessage(`Rephrase: ${reason}`);
    return { applied: false, file: [...before][0], reason };
  }
  const result = await next(command, args);
  if (result !== null && typeof result === 'object') {
    const { applied, changed, file } = result as { applied?: unknown; changed?: unknown; file?: unknown };
    if (applied === true && changed === true && typeof file === 'string') {
      await saveProjectFile(file);
    }
  }
  return result;
}

const NUMBER = new Intl.NumberFormat('en-US');

/** The text-improvement characters and the billing period, when the service gave them. */
function usageDetails(usage: UsageInfo): string {
  const parts: string[] = [];
  const write = usage.extra['writeCharacterCount'];
  if (typeof write === 'number') {
    parts.push(`Text improvement: ${NUMBER.format(write)} characters`);
  }
  const start = usage.extra['periodStart'];
  const end = usage.extra['periodEnd'];
  if (typeof start === 'string' && typeof end === 'string') {
    parts.push(`billing period ${start} to ${end}`);
  }
  return parts.length > 0 ? ` ${parts.join('; ')}.` : '';
}

/** One sentence about the usage for the writer. */
export function formatUsage(usage: UsageInfo): string {
  return formatTotal(usage) + (usage.characterCount === null ? '' : usageDetails(usage));
}

function formatTotal(usage: UsageInfo): string {
  const who = usage.backend === 'service' ? 'the rephrase service' : `the ${usage.backend} service`;
  if (usage.characterCount === null) {
    return `Rephrase uses ${who}; it reported no character count.`;
  }
  const used = `${NUMBER.format(usage.characterCount)} characters used`;
  if (usage.characterLimit === null) {
    return `Rephrase uses ${who}: ${used} this period (no limit).`;
  }
  const percent =
    usage.characterLimit > 0 ? (100 * usage.characterCount) / usage.characterLimit : 100;
  return (
    `Rephrase uses ${who}: ${used} of ${NUMBER.format(usage.characterLimit)} ` +
    `this period (${percent.toFixed(1)} %).`
  );
}

/** "Rephrase: Show Usage". */
export async function showUsage(api: ServerApi, uri: vscode.Uri | undefined): Promise<string> {
  const usage = parseUsage(await api.executeCommand('rephrase.usage', uri ? [uri.toString()] : []));
  const message = formatUsage(usage);
  void vscode.window.showInformationMessage(message);
  return message;
}

function toLspRange(range: vscode.Range): object {
  return {
    start: { line: range.start.line, character: range.start.character },
    end: { line: range.end.line, character: range.end.character },
  };
}

/**
 * "Rephrase: Improve Selection": the server's `rephrase.improve` on the selection (the paragraph
 * under the cursor when nothing is selected). The server computes the edit, applies it through
 * `workspace/applyEdit` (pinned to the document version, so an edit made stale by typing is
 * refused) and tells the writer why when nothing was applied. Returns whether the text changed.
 */
export async function improveSelection(
  api: ServerApi,
  editor: vscode.TextEditor,
): Promise<'applied' | 'none'> {
  const range = new vscode.Range(editor.selection.start, editor.selection.end);
  const result = parseImproveResult(
    await api.executeCommand('rephrase.improve', [editor.document.uri.toString(), toLspRange(range)]),
  );
  return result.applied ? 'applied' : 'none';
}

/**
 * "Rephrase: Correct Selection": the server's `rephrase.correct` (corrections only: spelling and
 * grammar, the wording kept) on the selection, or the paragraph under the cursor when nothing is
 * selected. As with Improve Selection, the server applies the edit and explains a refusal (a
 * service without corrections included). Returns whether the text changed.
 */
export async function correctSelection(
  api: ServerApi,
  editor: vscode.TextEditor,
): Promise<'applied' | 'none'> {
  const range = new vscode.Range(editor.selection.start, editor.selection.end);
  const result = parseImproveResult(
    await api.executeCommand('rephrase.correct', [editor.document.uri.toString(), toLspRange(range)]),
    'rephrase.correct',
  );
  return result.applied ? 'applied' : 'none';
}

/** "Rephrase: Correct Document": the server's `rephrase.correct` on the whole document. */
export async function correctDocument(
  api: ServerApi,
  editor: vscode.TextEditor,
): Promise<'applied' | 'none'> {
  const result = parseImproveResult(
    await api.executeCommand('rephrase.correct', [editor.document.uri.toString()]),
    'rephrase.correct',
  );
  return result.applied ? 'applied' : 'none';
}

/** The message shown for a failed command, without a stack trace. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) {
    return error.message;
  }
  if (error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  return String(error);
}
