-- rephrase.nvim: a thin Neovim client for the rephrase-ls language server.
--
-- Neovim 0.11+: `vim.lsp.enable('rephrase')` reads lsp/rephrase.lua; `require('rephrase').setup()`
-- works on every version from 0.7.2. The server does the work (its `rephrase.*` commands); this
-- plugin starts it, answers its requests, shows pickers and calls its commands.
--
-- Modules: config (options, the client configuration), client (start, ready, commands),
-- commands (improve, pickers, :Rephrase), handlers (what the server asks), notify (messages),
-- compat (every Neovim 0.7 to 0.11 difference), health (:checkhealth rephrase).

local client = require('rephrase.client')
local commands = require('rephrase.commands')
local compat = require('rephrase.compat')
local config = require('rephrase.config')
local notify = require('rephrase.notify')

local M = {}

M.improve = commands.improve
M.correct = commands.correct
M.alternatives = require('rephrase.alternatives').show
M.pick_style = commands.pick_style
M.pick_language = commands.pick_language
M.usage = commands.usage
M.format_usage = commands.format_usage
M.command = commands.command
M.complete = commands.complete
M.command_range = commands.command_range
M.restart = client.restart
M.start = client.start
M.get_client = client.get
M.config = config.get
M.fit_message = notify.fit
M.shortened = notify.shortened

--- The whole client configuration for the current options (lsp/rephrase.lua, the options laid
--- over it, and the server program found).
---@return table
function M.lsp_config()
  return (config.client_config(config.get()))
end

local augroup = nil

--- Configures the plugin (`opts` over vim.g.rephrase, see :help rephrase-configuration), gives
--- running servers the new settings and starts the server for the configured file types.
---@param opts rephrase.Options?
function M.setup(opts)
  if opts ~= nil and type(opts) ~= 'table' then
    error('rephrase: setup() takes a table', 0)
  end
  config.from_setup = vim.deepcopy(opts or {})
  config.forget_cmd()
  local options = config.get()
  client.push_settings(config.server_settings(options))
  if compat.has_lsp_config() then
    -- Replaced, not merged: a setting left out of this setup{} must not survive from the last.
    vim.lsp.config[config.NAME] = M.lsp_config()
    if options.autostart then
      vim.lsp.enable(config.NAME)
    end
    return
  end
  augroup = vim.api.nvim_create_augroup('rephrase', { clear = true })
  if not options.autostart then
    return
  end
  local function start(buf)
    if vim.bo[buf].buftype ~= '' then
      return
    end
    local id, err = client.start(buf)
    if not id then
      notify.error(err)
    end
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = augroup,
    pattern = options.filetypes,
    callback = function(args)
      start(args.buf)
    end,
  })
  -- Buffers already open when setup() ran.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(options.filetypes, vim.bo[buf].filetype) then
      start(buf)
    end
  end
end

return M
