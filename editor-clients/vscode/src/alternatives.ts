/**
 * "Rephrase: Show Alternatives": the server's `rephrase.alternatives` for the paragraph(s) at the
 * selection (every writing style and tone the language offers, asked at once), a quick pick of
 * the rewrites, and the chosen one applied by the server (`rephrase.applyAlternative`, refused
 * when the document changed meanwhile). The server explains every refusal itself.
 */
import * as vscode from 'vscode';
import type { CodeActionMiddleware } from 'vscode-languageclient';

import { parseImproveResult, ProtocolError, ServerApi } from './protocol';

export const SHOW_ALTERNATIVES = 'rephrase.showAlternatives';

/** One rewrite offered by the server. */
export interface Alternative {
  label: string;
  text: string;
  preview: string;
  command: { command: string; arguments: unknown[] };
}

export interface AlternativesResult {
  alternatives: Alternative[];
  failed: { label: string; reason: string }[];
  reason: string | null;
}

interface AlternativeItem extends vscode.QuickPickItem {
  alternative: Alternative;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parseAlternative(raw: unknown, what: string): Alternative {
  if (!isRecord(raw)) {
    throw new ProtocolError(`${what}: an alternative should be an object, got ${JSON.stringify(raw)}`);
  }
  const { label, text, preview, command } = raw;
  if (typeof label !== 'string' || typeof text !== 'string' || typeof preview !== 'string') {
    throw new ProtocolError(`${what}: an alternative needs label, text and preview strings`);
  }
  if (!isRecord(command) || typeof command.command !== 'string' || !Array.isArray(command.arguments)) {
    throw new ProtocolError(`${what}: the alternative "${label}" has no command to apply it`);
  }
  return { label, text, preview, command: { command: command.command, arguments: command.arguments } };
}

/** Parses the result of `rephrase.alternatives`. */
export function parseAlternatives(raw: unknown): AlternativesResult {
  const what = 'rephrase.alternatives';
  if (!isRecord(raw) || !Array.isArray(raw.alternatives)) {
    throw new ProtocolError(`${what} returned ${JSON.stringify(raw)} instead of {alternatives, ...}`);
  }
  const failed = Array.isArray(raw.failed) ? raw.failed : [];
  const reason = raw.reason;
  if (reason !== undefined && reason !== null && typeof reason !== 'string') {
    throw new ProtocolError(`${what}: "reason" should be a string`);
  }
  return {
    alternatives: raw.alternatives.map((a) => parseAlternative(a, what)),
    failed: failed.filter(isRecord).map((f) => ({ label: String(f.label), reason: String(f.reason) })),
    reason: reason ?? null,
  };
}

/** The server's command behind its "Show alternatives…" code action. */
export const SERVER_ALTERNATIVES = 'rephrase.alternatives';

/**
 * Code-action middleware: the server's "Show alternatives…" action (whose command offers the
 * rewrites with `window/showMessageRequest`, for editors without a picker of their own) runs
 * "Rephrase: Show Alternatives" instead, the quick pick, on the same selection.
 */
export const codeActionMiddleware: CodeActionMiddleware['provideCodeActions'] = async (
  document,
  range,
  context,
  token,
  next,
) => {
  const actions = await next(document, range, context, token);
  for (const action of actions ?? []) {
    // A Command has a string `command`; a CodeAction an object (or none).
    const command = (action as { command?: unknown }).command as vscode.Command | undefined;
    if (command !== null && typeof command === 'object' && command.command === SERVER_ALTERNATIVES) {
      (action as vscode.CodeAction).command = { title: command.title, command: SHOW_ALTERNATIVES };
    }
  }
  return actions;
};

function toLspRange(range: vscode.Range): object {
  return {
    start: { line: range.start.line, character: range.start.character },
    end: { line: range.end.line, character: range.end.character },
  };
}

/**
 * Asks for the alternatives, shows them in a quick pick (label; the rewrite's text as detail) and
 * applies the chosen one. Returns the label applied, or undefined when nothing was.
 */
export async function showAlternatives(
  api: ServerApi,
  editor: vscode.TextEditor,
): Promise<string | undefined> {
  const range = new vscode.Range(editor.selection.start, editor.selection.end);
  const found = parseAlternatives(
    await api.executeCommand('rephrase.alternatives', [editor.document.uri.toString(), toLspRange(range)]),
  );
  if (found.alternatives.length === 0) {
    return undefined; // the server has said why
  }
  const items: AlternativeItem[] = found.alternatives.map((alternative) => ({
    label: alternative.label,
    description: alternative.preview,
    detail: alternative.text,
    alternative,
  }));
  const missing = found.failed.map((f) => f.label).join(', ');
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Rephrase: alternatives for this paragraph',
    placeHolder: missing ? `Choose a rewrite (not available: ${missing})` : 'Choose a rewrite',
    matchOnDetail: true,
  });
  if (picked === undefined) {
    return undefined;
  }
  const { command, arguments: args } = picked.alternative.command;
  const result = parseImproveResult(await api.executeCommand(command, args));
  return result.applied ? picked.alternative.label : undefined;
}
