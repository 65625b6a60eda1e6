/**
 * Mocha set-up: makes `require('vscode')` return the fake, and resets it before each test.
 */
import Module = require('module');

import * as fake from './fake/vscode';

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoad = Module as unknown as { _load: Load };
const originalLoad = moduleWithLoad._load;
moduleWithLoad._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
  if (request === 'vscode') {
    return fake;
  }
  return originalLoad.call(this, request, parent, isMain);
};

export const mochaHooks = {
  beforeEach(): void {
    fake.reset();
  },
};
