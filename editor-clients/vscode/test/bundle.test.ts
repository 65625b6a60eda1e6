import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import Module = require('module');
import * as path from 'node:path';

import * as fake from './fake/vscode';

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;

describe('the esbuild bundle', () => {
  const bundle = path.resolve(__dirname, '..', '..', 'dist', 'extension.js');

  it('loads and exports activate and deactivate', function () {
    assert.ok(existsSync(bundle), `${bundle} is missing: run "npm run build"`);
    // vscode-languageclient extends vscode classes at load time: give it empty ones.
    const vscodeForBundle = new Proxy(fake as Record<string, unknown>, {
      get(target, name) {
        if (typeof name === 'string' && name in target) {
          return target[name];
        }
        return typeof name === 'string' && /^[A-Z]/.test(name) ? class {} : undefined;
      },
    });
    const loader = Module as unknown as { _load: Load };
    const previous = loader._load;
    loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
      return request === 'vscode' ? vscodeForBundle : previous.call(this, request, parent, isMain);
    };
    try {
      delete require.cache[bundle];
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const extension = require(bundle) as Record<string, unknown>;
      assert.equal(typeof extension.activate, 'function');
      assert.equal(typeof extension.deactivate, 'function');
    } finally {
      loader._load = previous;
    }
  });
});
