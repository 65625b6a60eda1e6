/**
 * The bundled extension activated in a stand-in VS Code host (test/fake/host.ts), starting the
 * real rephrase-ls through vscode-languageclient: commands registered, the status bar filled
 * from the server, usage and the style picker round-tripping through the server.
 * Skipped when no rephrase-ls can be found (set REPHRASE_TEST_SERVER to its path).
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import Module = require('module');
import * as os from 'node:os';
import * as path from 'node:path';

import { COMMAND_IDS } from '../src/commands';
import { findExecutable } from '../src/launch';
import * as host from './fake/host';
import * as fake from './fake/vscode';

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;

async function until(what: string, predicate: () => boolean, ms = 30000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}\nlog:\n${host.log.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the activated extension', function () {
  this.timeout(90000);
  const bundle = path.resolve(__dirname, '..', '..', 'dist', 'extension.js');
  let server: string | undefined;
  let dir: string;
  const loader = Module as unknown as { _load: Load };
  let previous: Load;

  before(async function () {
    server = process.env.REPHRASE_TEST_SERVER || (await findExecutable('rephrase-ls'));
    if (!server) {
      this.skip();
    }
    assert.ok(existsSync(bundle), 'run "npm run build" first');
  });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rephrase-activate-'));
    previous = loader._load;
    const vscodeHost = host.hostModule();
    loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
      return request === 'vscode' ? vscodeHost : previous.call(this, request, parent, isMain);
    };
    delete require.cache[bundle];
    host.registered.clear();
    host.documents.length = 0;
    host.log.length = 0;
    host.statusItems.length = 0;
    host.providers.clear();
    host.folders.length = 0;
  });

  afterEach(() => {
    loader._load = previous;
    delete require.cache[bundle];
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts the server, registers the commands and talks to the server', async () => {
    fake.setSettings('rephrase', '', { 'server.path': server, writingStyle: 'casual', tone: null });
    // the server writes .rephrase.toml only inside a workspace folder
    host.folders.push({ uri: fake.Uri.file(dir), name: 'notes', index: 0 });
    const secrets = Object.assign(new fake.FakeSecretStorage(), { onDidChange: new host.EventEmitter().event });
    const context = { subscriptions: [] as { dispose(): unknown }[], secrets, extensionPath: dir };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const extension = require(bundle) as {
      activate(c: unknown): Promise<void>;
      deactivate(): Promise<void>;
    };
    try {
      await extension.activate(context);
      for (const id of Object.values(COMMAND_IDS)) {
        assert.ok(host.registered.has(id), `${id} is not registered`);
      }
      // vscode-languageclient registers the server's own commands next to ours.
      await until('the server commands', () => host.registered.has('rephrase.listStyles'));
      assert.ok(host.log.some((l) => l.includes('no API key stored')), host.log.join('\n'));

      const file = path.join(dir, 'notes.md');
      const document = new host.FakeDocument(
        fake.Uri.file(file),
        'markdown',
        'This is a very good sentance, and it are really importent for teh team.\n',
      );
      host.documents.push(document);
      host.events.open.fire(document);
      const selection = new fake.Selection(new fake.Position(0, 0), new fake.Position(0, 0));
      fake.state.activeTextEditor = { document, selection };

      await host.registered.get(COMMAND_IDS.showUsage)!();
      await until('the usage message', () => fake.state.shown.some((m) => /offline/.test(m.message)));

      // Improve Selection: the server's rephrase.improve, which applies the edit through
      // workspace/applyEdit (the language client hands it to the host).
      fake.state.activeTextEditor = {
        document,
        selection: new fake.Selection(new fake.Position(0, 3), new fake.Position(0, 3)), // the paragraph at the cursor
      };
      await host.registered.get(COMMAND_IDS.improveSelection)!();
      const improvement = fake.state.appliedEdits.flatMap((e: host.WorkspaceEdit) => e.operations);
      assert.ok(
        improvement.some((o) => o.uri === document.uri.toString() && (o.text ?? '').includes('sentence')),
        `Improve Selection applied no improvement: ${JSON.stringify(improvement)} ${JSON.stringify(fake.state.shown)}`,
      );
      fake.state.appliedEdits.length = 0;

      // Correct Selection: the server's rephrase.correct on the paragraph at the cursor.
      await host.registered.get(COMMAND_IDS.correctSelection)!();
      const correction = fake.state.appliedEdits.flatMap((e: host.WorkspaceEdit) => e.operations);
      assert.ok(
        correction.some((o) => o.uri === document.uri.toString() && (o.text ?? '').includes('sentence')),
        `Correct Selection applied no correction: ${JSON.stringify(correction)} ${JSON.stringify(fake.state.shown)}`,
      );
      fake.state.appliedEdits.length = 0;

      fake.state.pickAnswers.push((items: { label: string; description?: string }[]) => {
        assert.ok(items.some((i) => i.label === 'business'), JSON.stringify(items));
        assert.equal(items.find((i) => i.label === 'casual')?.description, 'current',
          'the editor setting reached the server through workspace/configuration');
        return items.find((i) => i.label === 'business');
      });
      await host.registered.get(COMMAND_IDS.chooseStyle)!();
      assert.equal(fake.state.quickPicks.length, 1, JSON.stringify(fake.state.shown));
      const operations = fake.state.appliedEdits.flatMap((e: host.WorkspaceEdit) => e.operations);
      assert.ok(
        operations.some((o) => o.uri.endsWith('/.rephrase.toml') && /writingStyle = "business"/.test(o.text ?? '')),
        `the server did not write the style into .rephrase.toml: ${JSON.stringify(operations)}`,
      );
      assert.ok(
        fake.state.shown.some((m) => m.message.startsWith('Rephrase: writing style set to "business"')),
        JSON.stringify(fake.state.shown),
      );
      const item = host.statusItems.at(-1)!;
      await until('the status bar item', () => item.visible && item.text.startsWith('$(pencil) en-US'));
      assert.equal(item.command, COMMAND_IDS.chooseStyle);
    } finally {
      await extension.deactivate();
      for (const d of context.subscriptions) {
        d.dispose();
      }
    }
  });

  it('starts the server with the key from secret storage, which never shows', async () => {
    const key = 'stored-secret-key-98765';
    fake.setSettings('rephrase', '', { 'server.path': server });
    const secrets = Object.assign(new fake.FakeSecretStorage(), { onDidChange: new host.EventEmitter().event });
    secrets.values.set('rephrase.apiKey', key);
    const context = { subscriptions: [] as { dispose(): unknown }[], secrets, extensionPath: dir };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const extension = require(bundle) as {
      activate(c: unknown): Promise<void>;
      deactivate(): Promise<void>;
    };
    try {
      await extension.activate(context);
      await until('the server commands', () => host.registered.has('rephrase.usage'));
      assert.ok(host.log.some((l) => l.includes('API key from secret storage')), host.log.join('\n'));
      const document = new host.FakeDocument(fake.Uri.file(path.join(dir, 'a.md')), 'markdown', 'Some text.\n');
      host.documents.push(document);
      host.events.open.fire(document);
      fake.state.activeTextEditor = { document, selection: new fake.Selection(new fake.Position(0, 0), new fake.Position(0, 0)) };
      await host.registered.get(COMMAND_IDS.showUsage)!();
      await until('an answer to Show Usage', () => fake.state.shown.some((m) => m.level !== 'info' || /Rephrase uses/.test(m.message)));
      assert.ok(!fake.state.shown.some((m) => /offline/.test(m.message) && /Rephrase uses/.test(m.message)),
        `with a key the offline service must not answer: ${JSON.stringify(fake.state.shown)}`);
      const everything = JSON.stringify(fake.state.shown) + host.log.join('\n');
      assert.ok(!everything.includes(key), 'the key appears in a message or the log');
    } finally {
      await extension.deactivate();
      for (const d of context.subscriptions) {
        d.dispose();
      }
    }
  });

  it('in an untrusted workspace runs the server offline without the key, until trust is granted', async () => {
    const key = 'stored-secret-key-24680';
    fake.setSettings('rephrase', '', { 'server.path': server, serverUrl: 'https://mine.example' });
    const secrets = Object.assign(new fake.FakeSecretStorage(), { onDidChange: new host.EventEmitter().event });
    secrets.values.set('rephrase.apiKey', key);
    const context = { subscriptions: [] as { dispose(): unknown }[], secrets, extensionPath: dir };
    host.workspaceTrust.trusted = false;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const extension = require(bundle) as {
      activate(c: unknown): Promise<void>;
      deactivate(): Promise<void>;
    };
    try {
      await extension.activate(context);
      await until('the server commands', () => host.registered.has('rephrase.usage'));
      assert.ok(host.log.some((l) => l.includes('--offline') && l.includes('untrusted workspace')), host.log.join('\n'));
      assert.ok(!host.log.some((l) => l.includes('API key from secret storage')), host.log.join('\n'));
      const document = new host.FakeDocument(fake.Uri.file(path.join(dir, 'a.md')), 'markdown', 'Some text.\n');
      host.documents.push(document);
      host.events.open.fire(document);
      fake.state.activeTextEditor = { document, selection: new fake.Selection(new fake.Position(0, 0), new fake.Position(0, 0)) };
      await host.registered.get(COMMAND_IDS.showUsage)!();
      await until('the offline usage message', () => fake.state.shown.some((m) => /offline/.test(m.message)));

      host.workspaceTrust.trusted = true;
      host.log.length = 0;
      host.events.trust.fire();
      await until('a restart with the key', () => host.log.some((l) => l.includes('API key from secret storage')));
      assert.ok(!host.log.join('\n').includes(key));
    } finally {
      host.workspaceTrust.trusted = true;
      await extension.deactivate();
    }
  });
});
