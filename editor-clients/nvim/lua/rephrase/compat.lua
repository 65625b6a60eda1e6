-- Every difference between Neovim 0.7 and 0.11 the plugin meets, in one place. The rest of the
-- plugin calls these and never tests versions itself.

local M = {}

--- Whether Neovim has `feature` (as in `has()`).
---@param feature string
---@return boolean
function M.has(feature)
  return vim.fn.has(feature) == 1
end

--- The libuv binding (`vim.uv` from 0.10, `vim.loop` before).
M.uv = vim.uv or vim.loop

--- Whether `vim.lsp.config`/`vim.lsp.enable` exist (0.11+): `lsp/rephrase.lua` is read then.
---@return boolean
function M.has_lsp_config()
  return vim.lsp.config ~= nil and vim.lsp.enable ~= nil
end

--- Calls a method of a client object (0.11 uses `client:method()`, older versions `client.method()`).
---@param client vim.lsp.Client
---@param method string
---@return any
function M.call(client, method, ...)
  if M.has('nvim-0.11') then
    return client[method](client, ...)
  end
  return client[method](...)
end

---@param client vim.lsp.Client
---@return boolean
function M.is_stopped(client)
  return M.call(client, 'is_stopped') == true
end

--- The clients named `name` (attached to `bufnr` when given) that are not stopped.
---@param name string
---@param bufnr integer?
---@return vim.lsp.Client[]
function M.clients(name, bufnr)
  local all
  if vim.lsp.get_clients then
    all = vim.lsp.get_clients({ name = name, bufnr = bufnr })
  elseif bufnr then
    all = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  else
    all = vim.lsp.get_active_clients()
  end
  local out = {}
  for _, client in ipairs(all) do
    if client.name == name and not M.is_stopped(client) then
      table.insert(out, client)
    end
  end
  return out
end

--- Starts a client for `bufnr`, or attaches the running one with the same name and root.
--- Returns the client id, or nil and a message.
---@param config table a client configuration (`name`, `cmd`, `root_dir`, ...)
---@param bufnr integer
---@return integer? id
---@return string? err
function M.start(config, bufnr)
  if vim.lsp.start then -- 0.8+
    local id = vim.lsp.start(config, { bufnr = bufnr })
    if not id then
      return nil, 'the server did not start (see :LspLog)'
    end
    return id
  end
  for _, client in ipairs(M.clients(config.name)) do
    if client.config.root_dir == config.root_dir then
      vim.lsp.buf_attach_client(bufnr, client.id)
      return client.id
    end
  end
  local id = vim.lsp.start_client(config)
  if not id then
    return nil, 'the server did not start (see :LspLog)'
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

--- Starts a client attached to no buffer (for `:checkhealth`).
---@param config table
---@return integer?
function M.start_detached(config)
  if M.has('nvim-0.11') then
    return vim.lsp.start(config, { attach = false })
  end
  return vim.lsp.start_client(config)
end

--- Client capabilities: Neovim's own with each of `...` laid over them (0.11 does that itself,
--- 0.7 to 0.10 use the capabilities given as they are).
---@param ... table
---@return table
function M.capabilities(...)
  return vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), ...)
end

--- The settings a client has (`client.settings` on 0.11, `client.config.settings` before).
---@param client vim.lsp.Client
---@return table
function M.client_settings(client)
  local settings = client.settings
  if settings == nil or settings == vim.NIL then
    settings = client.config and client.config.settings
  end
  if settings == nil or settings == vim.NIL then
    return {}
  end
  return settings
end

--- Gives a client new settings, wherever this version keeps them.
---@param client vim.lsp.Client
---@param settings table
function M.set_client_settings(client, settings)
  client.config.settings = vim.deepcopy(settings)
  if client.settings ~= nil then
    client.settings = vim.deepcopy(settings)
  end
end

--- The LSP column of byte `byte_col` of `line` in `encoding` ('utf-8', 'utf-16' or 'utf-32').
---@param line string
---@param byte_col integer
---@param encoding string
---@return integer
function M.lsp_col(line, byte_col, encoding)
  if byte_col <= 0 then
    return 0
  end
  byte_col = math.min(byte_col, #line)
  if encoding == 'utf-8' then
    return byte_col
  end
  if M.has('nvim-0.11') then
    return vim.str_utfindex(line, encoding, byte_col, false)
  end
  local utf32, utf16 = vim.str_utfindex(line, byte_col)
  return encoding == 'utf-32' and utf32 or utf16
end

--- The document version the client last sent for `bufnr`.
---@param bufnr integer
---@return integer
function M.buf_version(bufnr)
  local versions = vim.lsp.util.buf_versions
  local version = versions and versions[bufnr]
  if version == nil then
    version = vim.api.nvim_buf_get_changedtick(bufnr)
  end
  return version
end

--- The `:checkhealth` reporters (`vim.health` from 0.8; 0.7 has the `health` module).
---@return { start: function, ok: function, info: function, warn: function, error: function }
function M.health()
  local h = vim.health or require('health')
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

return M
