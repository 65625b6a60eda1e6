/** The status bar item: the document's language and the active style or tone. */
import * as vscode from 'vscode';

import { COMMAND_IDS } from './commands';
import { parseStylesInfo, ServerApi, StylesInfo } from './protocol';

/** The item's text and tooltip for what the server said about a document. */
export function statusText(info: StylesInfo): { text: string; tooltip: string } {
  const language = info.language ?? 'auto';
  const source = info.languageSource ? ` (${info.languageSource})` : '';
  let choice = '';
  let choiceTip = 'no particular writing style or tone';
  if (info.current.tone) {
    choice = ` · ${info.current.tone}`;
    choiceTip = `tone "${info.current.tone}"`;
  } else if (info.current.writingStyle) {
    choice = ` · ${info.current.writingStyle}`;
    choiceTip = `writing style "${info.current.writingStyle}"`;
  }
  if (!info.supported) {
    const why = info.reason ? ` ${info.reason}` : ' Styles and tones are not available.';
    return {
      text: `$(pencil) ${language}`,
      tooltip: `Rephrase: language ${language}${source}.${why}`,
    };
  }
  return {
    text: `$(pencil) ${language}${choice}`,
    tooltip: `Rephrase: language ${language}${source}, ${choiceTip}. Click to choose a writing style.`,
  };
}

/** Keeps the status bar item in step with the active editor; stale answers are dropped. */
export class StatusController implements vscode.Disposable {
  private generation = 0;

  constructor(
    private readonly item: vscode.StatusBarItem,
    private readonly api: () => ServerApi | undefined,
    private readonly handles: (document: vscode.TextDocument) => boolean,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    item.command = COMMAND_IDS.chooseStyle;
    item.name = 'Rephrase';
  }

  /** Re-reads the style information for `editor` (default: the active one). */
  async refresh(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): Promise<void> {
    const generation = ++this.generation;
    const api = this.api();
    if (editor === undefined || api === undefined || !this.handles(editor.document)) {
      this.item.hide();
      return;
    }
    let info: StylesInfo;
    try {
      info = parseStylesInfo(
        await api.executeCommand('rephrase.listStyles', [editor.document.uri.toString()]),
      );
    } catch (error) {
      if (generation !== this.generation) {
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      this.log(`status bar: ${message}`);
      this.item.text = '$(pencil) Rephrase';
      this.item.tooltip = `Rephrase: ${message}`;
      this.item.show();
      return;
    }
    if (generation !== this.generation) {
      return; // the writer moved on while we waited
    }
    const { text, tooltip } = statusText(info);
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.show();
  }

  dispose(): void {
    this.generation++;
    this.item.dispose();
  }
}
