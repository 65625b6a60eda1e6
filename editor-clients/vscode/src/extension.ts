/**
 * Entry point: starts rephrase-ls through vscode-languageclient and wires the commands, the
 * status bar item and the API key. Everything else lives in the server.
 */
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';

import { codeActionMiddleware, showAlternatives } from './alternatives';
import {
  chooseLanguage,
  chooseStyle,
  COMMAND_IDS,
  errorMessage,
  correctDocument,
  correctSelection,
  executeCommandMiddleware,
  improveSelection,
  showUsage,
  StyleKind,
} from './commands';
import { INSTALL_HINT, resolveServerCommand, serverEnvironment } from './launch';
import { ServerApi } from './protocol';
import { promptApiKey, SECRET_KEY } from './secrets';
import {
  configurationMiddleware,
  CONNECTION_SETTING_KEYS,
  connectionSettings,
  SECTION,
  userLimitSettings,
} from './settings';
import { StatusController } from './status';

export const DEFAULT_DOCUMENT_LANGUAGES = [
  'markdown',
  'plaintext',
  'git-commit',
  'restructuredtext',
  'latex',
  'tex',
  'asciidoc',
  'org',
  'typst',
  'html',
];

/** Settings whose change needs a new server process (connection settings are launch options). */
const RESTART_SETTINGS = ['server', ...CONNECTION_SETTING_KEYS, 'documentLanguages'];

function documentLanguages(): string[] {
  const configured = vscode.workspace.getConfiguration(SECTION).get<unknown>('documentLanguages');
  if (Array.isArray(configured) && configured.every((l) => typeof l === 'string') && configured.length > 0) {
    return configured as string[];
  }
  return DEFAULT_DOCUMENT_LANGUAGES;
}

/** Owns the LanguageClient: start, stop, restart with a fresh environment. */
class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private languages: string[] = DEFAULT_DOCUMENT_LANGUAGES;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  /** Server commands, or undefined while no server runs. */
  api(): ServerApi | undefined {
    const client = this.client;
    if (client === undefined || client.state !== State.Running) {
      return undefined;
    }
    return {
      executeCommand: (command, args) =>
        client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }),
    };
  }

  handles(document: vscode.TextDocument): boolean {
    return (document.uri.scheme === 'file' || document.uri.scheme === 'untitled') &&
      this.languages.includes(document.languageId);
  }

  /** Start, stop and restart run one after another: a stop (deactivation) asked for while a
   * restart is under way waits for it and then stops the new server, which would otherwise be
   * left running. */
  private lifecycle: Promise<unknown> = Promise.resolve();

  private serially<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.lifecycle.then(operation, operation);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  start(): Promise<boolean> {
    return this.serially(() => this.startNow());
  }

  stop(): Promise<void> {
    return this.serially(() => this.stopNow());
  }

  restart(): Promise<boolean> {
    return this.serially(async () => {
      this.output.info('Restarting the server.');
      await this.stopNow();
      return this.startNow();
    });
  }

  private async startNow(): Promise<boolean> {
    const config = vscode.workspace.getConfiguration(SECTION);
    let command;
    try {
      command = await resolveServerCommand({
        path: config.get<string | null>('server.path'),
        args: config.get<string[] | null>('server.args'),
        pythonPath: config.get<string | null>('server.pythonPath'),
      });
    } catch (error) {
      this.fail(errorMessage(error));
      return false;
    }
    // An untrusted workspace: no key is handed over and the server reads none (`--offline`).
    const trusted = vscode.workspace.isTrusted;
    if (!trusted) {
      command = { ...command, args: [...command.args, '--offline'] };
    }
    const apiKey = trusted ? await this.context.secrets.get(SECRET_KEY) : undefined;
    const keyVariable = config.get<string | null>('apiKeyEnv');
    const env = serverEnvironment(process.env, apiKey, keyVariable);
    this.output.info(
      `Starting ${command.command} ${command.args.join(' ')}`.trim() +
        (!trusted
          ? ' (untrusted workspace: offline, no API key)'
          : apiKey
            ? ' (API key from secret storage passed in the environment)'
            : ' (no API key stored)'),
    );
    this.languages = documentLanguages();
    // No `transport`: with TransportKind.stdio the library appends `--stdio`, which rephrase-ls
    // does not take; without it the library speaks over the process's stdin/stdout all the same.
    const serverOptions: ServerOptions = {
      command: command.command,
      args: command.args,
      options: { env },
    };
    const selector = this.languages.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]);
    const clientOptions: LanguageClientOptions = {
      documentSelector: selector,
      outputChannel: this.output,
      traceOutputChannel: this.output,
      middleware: {
        workspace: { configuration: configurationMiddleware() },
        provideCodeActions: codeActionMiddleware,
        executeCommand: executeCommandMiddleware,
      },
      // Where text and the key go, and the user's limits: user settings only, once per launch
      // (see settings.ts).
      initializationOptions: {
        [SECTION]: { ...userLimitSettings(config), ...(trusted ? connectionSettings(config) : {}) },
      },
      initializationFailedHandler: (error) => {
        this.output.error(`Initialisation failed: ${errorMessage(error)}`);
        return false;
      },
    };
    const client = new LanguageClient('rephrase', 'Rephrase', serverOptions, clientOptions);
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      this.client = undefined;
      await client.dispose().catch(() => undefined);
      this.fail(
        `Rephrase: the language server (${command.command}) did not start: ${errorMessage(error)}. ` +
          INSTALL_HINT,
      );
      return false;
    }
    this.output.info('Server started.');
    return true;
  }

  private async stopNow(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      try {
        await client.stop(5000);
      } catch (error) {
        this.output.warn(`Stopping the server: ${errorMessage(error)}`);
      }
      await client.dispose().catch(() => undefined);
    }
  }

  /** Sends a configuration change so the server pulls the settings again. */
  notifyConfigurationChanged(): void {
    const client = this.client;
    if (client !== undefined && client.state === State.Running) {
      void client.sendNotification('workspace/didChangeConfiguration', { settings: null });
    }
  }

  private fail(message: string): void {
    this.output.error(message);
    void vscode.window.showErrorMessage(message, 'Open Settings', 'Show Log').then((choice) => {
      if (choice === 'Open Settings') {
        void vscode.commands.executeCommand('workbench.action.openSettings', 'rephrase.server');
      } else if (choice === 'Show Log') {
        this.output.show();
      }
    });
  }

  dispose(): void {
    void this.stop();
  }
}

let manager: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Rephrase', { log: true });
  context.subscriptions.push(output);
  const servers = new ServerManager(context, output);
  manager = servers;
  context.subscriptions.push(servers);
  const item = vscode.window.createStatusBarItem('rephrase.status', vscode.StatusBarAlignment.Right, 100);
  const status = new StatusController(
    item,
    () => servers.api(),
    (doc) => servers.handles(doc),
    (message) => output.warn(message),
  );
  context.subscriptions.push(status);

  /** Wraps a command: needs a running server and a handled document; shows errors. */
  const register = (
    id: string,
    run: (api: ServerApi, editor: vscode.TextEditor | undefined) => Promise<unknown>,
    needsEditor = true,
  ): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async () => {
        const api = servers.api();
        if (api === undefined) {
          void vscode.window.showErrorMessage(
            'Rephrase: the language server is not running. Run "Rephrase: Restart Server" or see the "Rephrase" output.',
          );
          return;
        }
        const editor = vscode.window.activeTextEditor;
        if (needsEditor && (editor === undefined || !servers.handles(editor.document))) {
          void vscode.window.showWarningMessage(
            `Rephrase works on these document types: ${documentLanguages().join(', ')}.`,
          );
          return;
        }
        try {
          await run(api, editor);
        } catch (error) {
          const message = errorMessage(error);
          output.error(`${id}: ${message}`);
          void vscode.window.showErrorMessage(`Rephrase: ${message}`);
        }
      }),
    );
  };

  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  const style = (kind: StyleKind) => async (api: ServerApi, editor: vscode.TextEditor | undefined) => {
    await chooseStyle(api, editor!.document.uri, kind);
    await status.refresh();
  };
  register(COMMAND_IDS.correctSelection, (api, editor) => correctSelection(api, editor!));
  register(COMMAND_IDS.correctDocument, (api, editor) => correctDocument(api, editor!));
  register(COMMAND_IDS.improveSelection, (api, editor) => improveSelection(api, editor!));
  register(COMMAND_IDS.showAlternatives, (api, editor) => showAlternatives(api, editor!));
  register(COMMAND_IDS.chooseStyle, style('writingStyle'));
  register(COMMAND_IDS.chooseTone, style('tone'));
  register(COMMAND_IDS.chooseLanguage, async (api, editor) => {
    await chooseLanguage(api, editor!.document.uri);
    await status.refresh();
  });
  register(COMMAND_IDS.showUsage, (api, editor) => showUsage(api, editor?.document.uri), false);

  context.subscriptions.push(
    vscode.commands.registerCommand(COMMAND_IDS.setApiKey, async () => {
      const change = await promptApiKey(context.secrets);
      if (change !== 'unchanged') {
        output.info(change === 'set' ? 'API key stored.' : 'API key removed.');
        await servers.restart();
        await status.refresh();
      }
    }),
    vscode.commands.registerCommand(COMMAND_IDS.restartServer, async () => {
      await servers.restart();
      await status.refresh();
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => void status.refresh(editor)),
    vscode.workspace.onDidChangeTextDocument((event) => {
      // The detected language can change as the writer types: refresh once typing pauses.
      if (event.document === vscode.window.activeTextEditor?.document) {
        clearTimeout(typingTimer);
        typingTimer = setTimeout(() => void status.refresh(), 1500);
      }
    }),
    { dispose: () => clearTimeout(typingTimer) },
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.path.endsWith('/.rephrase.toml') || doc === vscode.window.activeTextEditor?.document) {
        void status.refresh();
      }
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration(SECTION)) {
        return;
      }
      if (RESTART_SETTINGS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`))) {
        const choice = await vscode.window.showInformationMessage(
          'Rephrase: restart the language server to use the new settings?',
          'Restart',
        );
        if (choice === 'Restart') {
          await servers.restart();
        }
      } else {
        servers.notifyConfigurationChanged();
      }
      await status.refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      output.info('The workspace is trusted now: restarting the server with the API key.');
      await servers.restart();
      await status.refresh();
    }),
    context.secrets.onDidChange(async (event) => {
      if (event.key === SECRET_KEY) {
        output.info('The stored API key changed in another window; restart to use it.');
      }
    }),
  );

  if (await servers.start()) {
    await status.refresh();
  }
}

export async function deactivate(): Promise<void> {
  await manager?.stop();
  manager = undefined;
}
