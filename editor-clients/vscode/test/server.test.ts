/**
 * The extension's launch and configuration logic against the real rephrase-ls process: the
 * command it resolves starts the server, the configuration middleware answers the server's
 * `workspace/configuration` pulls, and a stored key reaches the server through the environment.
 * Skipped when no rephrase-ls can be found (set REPHRASE_TEST_SERVER to its path).
 */
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

import { findExecutable, resolveServerCommand, serverEnvironment } from '../src/launch';
import { configurationMiddleware, connectionSettings } from '../src/settings';
import * as fake from './fake/vscode';

interface Session {
  connection: MessageConnection;
  child: ChildProcess;
  stderr: string[];
}

describe('against the real server', function () {
  this.timeout(60000);
  let server: string | undefined;
  let dir: string;

  before(async function () {
    server = process.env.REPHRASE_TEST_SERVER || (await findExecutable('rephrase-ls'));
    if (!server) {
      this.skip();
    }
  });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rephrase-server-'));
  });

  const sessions: Session[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) {
      try {
        await s.connection.sendRequest('shutdown');
        await s.connection.sendNotification('exit');
      } catch {
        // already gone
      }
      s.connection.dispose();
      s.child.kill();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(apiKey: string | undefined): Promise<{ session: Session; docUri: string }> {
    const base: Record<string, string | undefined> = { ...process.env, HOME: dir };
    for (const name of Object.keys(base)) {
      if (name.includes('API_KEY')) {
        delete base[name];
      }
    }
    const command = await resolveServerCommand({ path: server }, base);
    const env = serverEnvironment(base, apiKey, null);
    const child = spawn(command.command, command.args, { env, cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const connection = createMessageConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    const middleware = configurationMiddleware();
    const pulls: unknown[] = [];
    connection.onRequest('workspace/configuration', async (params: { items: { section?: string; scopeUri?: string }[] }) => {
      pulls.push(params);
      const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
      return middleware(params, token as never, () => params.items.map(() => null));
    });
    connection.onRequest('workspace/applyEdit', () => ({ applied: false, failureReason: 'not in this test' }));
    connection.onNotification(() => undefined);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.listen();
    const session = { connection, child, stderr };
    sessions.push(session);
    const rootUri = pathToFileURL(dir).toString();
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'test' }],
      capabilities: { workspace: { configuration: true, workspaceFolders: true } },
      clientInfo: { name: 'Visual Studio Code', version: '1.82.0' },
      // As extension.ts does: the connection settings from user settings, once per launch.
      initializationOptions: { rephrase: connectionSettings(fake.workspace.getConfiguration('rephrase')) },
    });
    await connection.sendNotification('initialized', {});
    const file = path.join(dir, 'doc.md');
    const text = 'This is a very good sentance, and it are really importent for teh team.\n';
    writeFileSync(file, text);
    const docUri = pathToFileURL(file).toString();
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: docUri, languageId: 'markdown', version: 1, text },
    });
    return { session, docUri };
  }

  it('pulls the editor settings through the middleware (nulls stripped)', async () => {
    fake.setSettings('rephrase', '', { writingStyle: 'academic', tone: null, language: null, 'server.path': '/x' });
    const { session, docUri } = await start(undefined);
    const info = (await session.connection.sendRequest('workspace/executeCommand', {
      command: 'rephrase.listStyles',
      arguments: [docUri],
    })) as { current: { writingStyle: string | null; tone: string | null }; language: string };
    assert.equal(info.current.writingStyle, 'academic');
    assert.equal(info.current.tone, null);
    assert.equal(info.language, 'en-US');
  });

  it('uses the offline service without a key', async () => {
    const { session, docUri } = await start(undefined);
    const usage = (await session.connection.sendRequest('workspace/executeCommand', {
      command: 'rephrase.usage',
      arguments: [docUri],
    })) as { backend: string };
    assert.match(usage.backend, /offline/);
  });

  it('hands a stored key to the server through the environment, never echoing it', async () => {
    const key = 'secret-test-key-1234';
    const { session, docUri } = await start(key);
    let outcome: unknown;
    try {
      outcome = await session.connection.sendRequest('workspace/executeCommand', {
        command: 'rephrase.usage',
        arguments: [docUri],
      });
    } catch (error) {
      outcome = error;
    }
    // With a key but no server address the server must not fall back to offline.
    const text = JSON.stringify(outcome, Object.getOwnPropertyNames(outcome ?? {}));
    assert.ok(!/"backend":"offline/.test(text), `the key did not reach the server: ${text}`);
    assert.ok(!text.includes(key), 'the key appears in the answer');
    assert.ok(!session.stderr.join('').includes(key), 'the key appears in the server log');
  });

  it('gives the server the address from user settings as launch options', async () => {
    // A loopback service that refuses the key (403 is not retried): the server learns at once
    // that it cannot list the languages, instead of retrying an address nobody listens on.
    const refusing = http.createServer((_request, response) => {
      response.writeHead(403, { 'Content-Type': 'application/json' });
      response.end('{"message":"Wrong key."}');
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
    try {
      fake.setSettings('rephrase', '', { serverUrl: url, tone: 'friendly' });
      const { session, docUri } = await start('secret-test-key-5678');
      const info = (await session.connection.sendRequest('workspace/executeCommand', {
        command: 'rephrase.listStyles',
        arguments: [docUri],
      })) as { backend: string; current: { tone: string | null } };
      assert.equal(info.backend, url);
      assert.equal(info.current.tone, 'friendly');
    } finally {
      refusing.close();
    }
  });
});
