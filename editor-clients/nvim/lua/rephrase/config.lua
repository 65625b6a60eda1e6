-- The plugin's options (vim.g.rephrase < setup{}), checked, and the client configuration built
-- from them over the static table of lsp/rephrase.lua. Finding the server program (`cmd`) when
-- none is configured happens here, for setup() and :checkhealth only.

local compat = require('rephrase.compat')

local M = {}

M.NAME = 'rephrase'
M.INSTALL_HINT = 'Install it with "pipx install rephrase-ls" (or "pip install rephrase-ls"), '
  .. 'or set cmd in vim.g.rephrase / require("rephrase").setup{}.'

---@class rephrase.Options
---@field cmd string[]? the server command; nil: `rephrase-ls` from PATH, else `python3 -P -m rephrase_ls`
---@field cmd_env table<string, string>? extra environment for the server (e.g. the API key)
---@field filetypes string[]
---@field root_markers string[]
---@field settings table the server's settings: the `rephrase` section
---@field autostart boolean start the server for `filetypes` from setup()
---@field save_project_file boolean write `.rephrase.toml` after the server changed it (set commands, quick fixes)
---@field on_attach fun(client: vim.lsp.Client, bufnr: integer)?
---@field capabilities table? merged over the client capabilities

--- lsp/rephrase.lua, the one client configuration (read from this plugin's own folder).
---@return table
function M.base()
  local here = debug.getinfo(1, 'S').source:gsub('^@', '')
  local root = vim.fn.fnamemodify(here, ':p:h:h:h')
  return dofile(root .. '/lsp/rephrase.lua')
end

--- The options' defaults.
---@return rephrase.Options
function M.defaults()
  local base = M.base()
  return {
    cmd = nil,
    cmd_env = nil,
    filetypes = base.filetypes,
    root_markers = base.root_markers,
    settings = {},
    autostart = true,
    save_project_file = true,
    on_attach = nil,
    capabilities = nil,
  }
end

--- The type of each option; `true`: it may be nil.
local TYPES = {
  cmd = { 'table', true },
  cmd_env = { 'table', true },
  filetypes = { 'table' },
  root_markers = { 'table' },
  settings = { 'table' },
  autostart = { 'boolean' },
  save_project_file = { 'boolean' },
  on_attach = { 'function', true },
  capabilities = { 'table', true },
}

---@param options rephrase.Options
local function validate(options)
  for key, spec in pairs(TYPES) do
    local v = options[key]
    if not ((v == nil and spec[2]) or type(v) == spec[1]) then
      error(('rephrase: invalid configuration: %s: expected %s, got %s'):format(key, spec[1], type(v)), 0)
    end
  end
  if options.cmd ~= nil then
    if #options.cmd == 0 then
      error('rephrase: invalid configuration: cmd must name a program', 0)
    end
    for _, part in ipairs(options.cmd) do
      if type(part) ~= 'string' then
        error('rephrase: invalid configuration: cmd must be a list of strings', 0)
      end
    end
  end
end

--- The options given to setup{} (kept for :Rephrase restart and :checkhealth).
---@type table
M.from_setup = {}

--- vim.g.rephrase, checked to be a table.
---@return table
local function global()
  local g = vim.g.rephrase
  if g ~= nil and type(g) ~= 'table' then
    error('rephrase: vim.g.rephrase must be a table', 0)
  end
  return g or {}
end

--- The effective options: defaults < vim.g.rephrase < setup{}. Lists replace lists.
---@return rephrase.Options
function M.get()
  local g = global()
  local options = vim.tbl_deep_extend('force', M.defaults(), g, M.from_setup)
  for _, key in ipairs({ 'cmd', 'filetypes', 'root_markers' }) do
    local from = M.from_setup[key] or g[key]
    if from ~= nil then
      options[key] = from
    end
  end
  validate(options)
  return options
end

local found_cmd = nil

--- Forgets the server program found, so the next M.server_cmd looks again.
function M.forget_cmd()
  found_cmd = nil
end

--- The server command: the configured one, `rephrase-ls` from PATH, or python3 -P -m rephrase_ls.
--- Returns nil and a message when nothing can start the server.
---@param options rephrase.Options
---@return string[]? cmd
---@return string? err
function M.server_cmd(options)
  if options.cmd then
    if vim.fn.executable(options.cmd[1]) ~= 1 then
      return nil, ('"%s" is not executable. %s'):format(options.cmd[1], M.INSTALL_HINT)
    end
    return options.cmd
  end
  if found_cmd then
    return found_cmd
  end
  if vim.fn.executable('rephrase-ls') == 1 then
    found_cmd = { 'rephrase-ls' }
    return found_cmd
  end
  -- `-P`: Python would otherwise put the current folder (a cloned repository, often) first on
  -- sys.path, and a `rephrase_ls/` planted there would run instead of the installed server.
  for _, python in ipairs({ 'python3', 'python' }) do
    if vim.fn.executable(python) == 1 then
      vim.fn.system({ python, '-P', '-c', 'import rephrase_ls' })
      if vim.v.shell_error == 0 then
        found_cmd = { python, '-P', '-m', 'rephrase_ls' }
        return found_cmd
      end
    end
  end
  return nil, 'rephrase-ls was not found on PATH and python3 cannot import rephrase_ls. ' .. M.INSTALL_HINT
end

--- The `settings` sent to the server: `{ rephrase = {...} }`, never an empty list.
---@param options rephrase.Options
---@return table
function M.server_settings(options)
  local section = vim.deepcopy(options.settings or {})
  if next(section) == nil then
    section = vim.empty_dict()
  end
  return { rephrase = section }
end

--- The fields of the client configuration that the options set explicitly (no probing): what
--- plugin/rephrase.lua lays over lsp/rephrase.lua on Neovim 0.11+ from vim.g.rephrase.
---@param options table
---@return table
function M.overrides(options)
  local out = {}
  for _, key in ipairs({ 'cmd', 'cmd_env', 'filetypes', 'root_markers', 'on_attach', 'capabilities' }) do
    out[key] = options[key]
  end
  if options.settings ~= nil then
    out.settings = M.server_settings(options)
  end
  return out
end

--- The whole client configuration for `options`, with `cmd` (a function raising the install
--- hint when the server cannot be found, so the writer sees why it does not start).
---@param options rephrase.Options
---@return table config
---@return string? err why the server cannot be found
function M.client_config(options)
  local config = M.base()
  local cmd, err = M.server_cmd(options)
  config.name = M.NAME
  config.cmd = cmd or function()
    error('rephrase: ' .. err, 0)
  end
  config.cmd_env = options.cmd_env
  config.filetypes = options.filetypes
  config.root_markers = options.root_markers
  config.settings = M.server_settings(options)
  config.on_attach = options.on_attach
  config.capabilities = compat.capabilities(config.capabilities, options.capabilities or {})
  return config, err
end

return M
