-- The running server: finding its client for a buffer, starting it, waiting for it to be ready,
-- sending it commands, restarting it.

local compat = require('rephrase.compat')
local config = require('rephrase.config')
local notify = require('rephrase.notify')
local value = require('rephrase.handlers').value

local M = {}

--- How long a command waits for the server to start, and for any client to appear at all.
M.ready_timeout_ms = 30000
M.appear_timeout_ms = 3000

--- Client ids started for each buffer by M.start (Neovim 0.7 lists a client only once it is
--- initialised; vim.lsp.get_client_by_id finds it before).
---@type table<integer, integer>
local starting = {}

--- The running, initialised rephrase client for `bufnr` (or any, when bufnr is nil).
---@param bufnr integer?
---@return vim.lsp.Client?
function M.get(bufnr)
  return compat.clients(config.NAME, bufnr)[1]
end

--- The folder holding one of `markers`, searched upwards from the buffer's file.
---@param bufnr integer
---@param markers string[]
---@return string
function M.root_dir(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local current = dir
  while true do
    for _, marker in ipairs(markers) do
      if compat.uv.fs_stat(current .. '/' .. marker) then
        return current
      end
    end
    local parent = vim.fn.fnamemodify(current, ':h')
    if parent == current then
      return dir
    end
    current = parent
  end
end

--- Starts (or reuses) the server for `bufnr`; returns the client id, or nil and a message.
--- On Neovim 0.11+ it starts from the resolved vim.lsp.config('rephrase'), so overrides made
--- there hold after :Rephrase restart too.
---@param bufnr integer?
---@return integer? id
---@return string? err
function M.start(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local options = config.get()
  local client_config, err
  local resolved = compat.has_lsp_config() and vim.lsp.config[config.NAME]
  if type(resolved) == 'table' and resolved.cmd then
    client_config = vim.deepcopy(resolved)
    client_config.name = config.NAME
  else
    client_config, err = config.client_config(options)
    if err then
      return nil, err
    end
  end
  if type(client_config.root_dir) ~= 'string' then
    client_config.root_dir = M.root_dir(bufnr, client_config.root_markers or options.root_markers)
  end
  local id
  id, err = compat.start(client_config, bufnr)
  if id then
    starting[bufnr] = id
  end
  return id, err
end

--- Whether a rephrase client for `bufnr` exists that has not finished starting.
---@param bufnr integer
---@return boolean
local function is_starting(bufnr)
  local ids = { starting[bufnr] }
  for _, client in ipairs(vim.lsp.get_clients and vim.lsp.get_clients({ name = config.NAME }) or {}) do
    table.insert(ids, client.id)
  end
  for _, id in ipairs(ids) do
    local client = vim.lsp.get_client_by_id(id)
    if client and not compat.is_stopped(client) and not client.initialized then
      return true
    end
  end
  return false
end

---@param bufnr integer
local function not_running(bufnr)
  notify.warn('the server is not running for this buffer (filetype "' .. vim.bo[bufnr].filetype
    .. '"); see :checkhealth rephrase')
end

--- Runs `fn(client)` with the buffer's client: now when it is ready, else once the server that
--- is starting for the buffer is (saying so). `fail()` runs when there is none.
---@param bufnr integer
---@param what string what will run, for the message
---@param fn fun(client: vim.lsp.Client)
---@param fail fun()?
function M.when_ready(bufnr, what, fn, fail)
  fail = fail or function() end
  local client = M.get(bufnr)
  if client and client.initialized == true then
    fn(client)
    return
  end
  local ok, options = pcall(config.get)
  local expected = ok and vim.tbl_contains(options.filetypes, vim.bo[bufnr].filetype)
  if not (expected or is_starting(bufnr)) then
    not_running(bufnr)
    return fail()
  end
  notify.say(('server starting; %s will run when it is ready'):format(what))
  local waited, seen, step = 0, false, 50
  local function poll()
    if not vim.api.nvim_buf_is_valid(bufnr) then
      return fail()
    end
    local ready = M.get(bufnr)
    if ready and ready.initialized == true then
      return fn(ready)
    end
    seen = seen or is_starting(bufnr)
    waited = waited + step
    if (not seen and waited >= M.appear_timeout_ms) or waited >= M.ready_timeout_ms then
      if seen then
        notify.error(('the server did not get ready in %d s; see :LspLog and :checkhealth rephrase'):format(
          M.ready_timeout_ms / 1000))
      else
        not_running(bufnr)
      end
      return fail()
    end
    vim.defer_fn(poll, step)
  end
  vim.defer_fn(poll, step)
end

--- The text of a JSON-RPC error.
---@param err any
---@return string
function M.error_text(err)
  if type(err) == 'table' then
    return value(err.message) or vim.inspect(err)
  end
  return tostring(err)
end

--- Runs the server command `command` once the server is ready: `callback(result)` on success;
--- on an error the writer is told and `fail()` runs, as it does when there is no server.
---@param bufnr integer
---@param command string
---@param arguments any[]
---@param callback fun(result: any)
---@param fail fun()?
function M.exec(bufnr, command, arguments, callback, fail)
  fail = fail or function() end
  M.when_ready(bufnr, command, function(client)
    compat.call(client, 'request', 'workspace/executeCommand', { command = command, arguments = arguments },
      function(err, result)
        if err then
          notify.error(command .. ': ' .. M.error_text(err))
          return fail()
        end
        callback(result)
      end, bufnr)
  end, fail)
end

--- The result of `command` now, or nil after `timeout_ms` (for completion, which cannot wait).
---@param bufnr integer
---@param command string
---@param arguments any[]
---@param timeout_ms integer
---@return any
function M.exec_sync(bufnr, command, arguments, timeout_ms)
  local client = M.get(bufnr)
  if not client or client.initialized ~= true then
    return nil
  end
  local response = compat.call(client, 'request_sync', 'workspace/executeCommand',
    { command = command, arguments = arguments }, timeout_ms, bufnr)
  if type(response) ~= 'table' or response.err then
    return nil
  end
  return value(response.result)
end

--- Gives running rephrase clients new settings and tells their servers
--- (`workspace/didChangeConfiguration`; the server then asks with workspace/configuration).
---@param settings table
function M.push_settings(settings)
  for _, client in ipairs(compat.clients(config.NAME)) do
    compat.set_client_settings(client, settings)
    compat.call(client, 'notify', 'workspace/didChangeConfiguration', { settings = settings })
  end
end

--- Stops the server and starts it again for the buffers it served. Returns how many.
---@param timeout_ms integer?
---@return integer
function M.restart(timeout_ms)
  local buffers, clients = {}, compat.clients(config.NAME)
  for _, client in ipairs(clients) do
    for buf in pairs(client.attached_buffers or {}) do
      buffers[buf] = true
    end
    compat.call(client, 'stop')
  end
  local stopped = vim.wait(timeout_ms or 5000, function()
    for _, client in ipairs(clients) do
      if not compat.is_stopped(client) then
        return false
      end
    end
    return true
  end, 50)
  if not stopped then
    for _, client in ipairs(clients) do
      compat.call(client, 'stop', true)
    end
  end
  config.forget_cmd()
  if next(buffers) == nil then
    local current = vim.api.nvim_get_current_buf()
    if vim.tbl_contains(config.get().filetypes, vim.bo[current].filetype) then
      buffers[current] = true
    end
  end
  local started = 0
  for buf in pairs(buffers) do
    if vim.api.nvim_buf_is_valid(buf) then
      local id, err = M.start(buf)
      if id then
        started = started + 1
      else
        notify.error(err)
      end
    end
  end
  notify.say(('server restarted for %d buffer(s)'):format(started))
  return started
end

return M
