-- Neovim 0.11+: `vim.lsp.enable('rephrase')` reads this vim.lsp.Config.
-- Options come from vim.g.rephrase (see :help rephrase-configuration); override any field with
-- vim.lsp.config('rephrase', {...}).
return require('rephrase').lsp_config()
