-- The rephrase-ls client configuration for Neovim 0.11+ (`vim.lsp.enable('rephrase')`): a plain
-- table, read without running anything. Override any field with vim.lsp.config('rephrase', {...});
-- options in vim.g.rephrase are laid over it when the plugin loads (see :help rephrase-setup).
-- `require('rephrase').setup()` starts from this table too, on every Neovim version.

---@type vim.lsp.Config
return {
  cmd = { 'rephrase-ls' },
  filetypes = {
    'markdown', 'text', 'gitcommit', 'rst', 'tex', 'plaintex', 'mail', 'asciidoc', 'org', 'typst', 'html',
  },
  root_markers = { '.rephrase.toml', '.git' },
  -- The server's settings: the `rephrase` section (docs/configuration.md).
  settings = { rephrase = {} },
  capabilities = {
    workspace = {
      -- Versioned edits: every Neovim applies them, 0.7 to 0.9 do not say so. With them the
      -- server pins each edit to the document version, and an edit made stale by typing is refused.
      workspaceEdit = { documentChanges = true },
      -- Answered by the plugin's handler (Neovim 0.7 neither advertises nor answers it).
      configuration = true,
      didChangeConfiguration = { dynamicRegistration = false },
      -- Answered by the plugin's handler, which pulls each buffer's diagnostics again (Neovim
      -- 0.10 and 0.11 pull them but do not answer it): a save, a word added or a rule turned
      -- off shows at once, not at the next edit. Neovim 0.7 to 0.9 are pushed diagnostics.
      diagnostics = { refreshSupport = true },
    },
  },
  -- The settings go as launch options too: the server takes where text and the key go
  -- (serverUrl, apiKeyEnv, ...) only from these, never from a folder's settings.
  before_init = function(params, config)
    params.initializationOptions = vim.deepcopy(config.settings)
  end,
  handlers = {
    ['workspace/applyEdit'] = function(...)
      return require('rephrase.handlers').apply_edit(...)
    end,
    ['workspace/configuration'] = function(...)
      return require('rephrase.handlers').configuration(...)
    end,
    ['window/showMessage'] = function(...)
      return require('rephrase.handlers').show_message(...)
    end,
    ['workspace/diagnostic/refresh'] = function(...)
      return require('rephrase.handlers').diagnostic_refresh(...)
    end,
  },
}
