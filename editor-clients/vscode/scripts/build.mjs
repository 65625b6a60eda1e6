// Bundles the extension with esbuild into dist/extension.js (the `vscode` module is external).
import { build } from 'esbuild';

const production = process.argv.includes('--production') || process.env.NODE_ENV === 'production';

await build({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
});
