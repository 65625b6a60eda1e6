-- :checkhealth rephrase — the options, the server program (found here, as setup() does), its
-- version, the key variable, and the backend answering.
local M = {}

local compat = require('rephrase.compat')
local h = compat.health()
local start, ok, info, warn, error = h.start, h.ok, h.info, h.warn, h.error

local WAIT_MS = 15000

local function value(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

--- The command printing the server version, from the command that runs it.
local function version_command(cmd)
  if #cmd >= 4 and cmd[2] == '-P' and cmd[3] == '-m' then
    return { cmd[1], '-P', '-m', cmd[4], '--version' }
  end
  if #cmd >= 3 and cmd[2] == '-m' then
    return { cmd[1], '-m', cmd[3], '--version' }
  end
  return { cmd[1], '--version' }
end

local function usage_from(client, bufnr)
  local response, err = compat.call(client, 'request_sync', 'workspace/executeCommand',
    { command = 'rephrase.usage', arguments = bufnr and { vim.uri_from_bufnr(bufnr) } or {} }, WAIT_MS, bufnr)
  if not response then
    return nil, 'no answer from the server (' .. tostring(err) .. ')'
  end
  if response.err then
    return nil, value(response.err.message) or vim.inspect(response.err)
  end
  return response.result
end

--- Asks a short-lived server for its usage, for when no buffer has one attached.
local function usage_from_new_server(options)
  local client_config = require('rephrase.config').client_config(options)
  client_config.name = 'rephrase-health'
  client_config.root_dir = vim.fn.getcwd()
  local id = compat.start_detached(client_config)
  if not id then
    return nil, 'the server did not start'
  end
  local client = vim.lsp.get_client_by_id(id)
  local ready = vim.wait(WAIT_MS, function()
    return client ~= nil and client.initialized == true
  end, 50)
  local result, err
  if ready then
    result, err = usage_from(client, nil)
  else
    err = 'the server did not initialise within ' .. WAIT_MS / 1000 .. ' s'
  end
  compat.call(client, 'stop')
  return result, err
end

function M.check()
  start('rephrase: configuration')
  local rephrase = require('rephrase')
  local settings = require('rephrase.config')
  local good, config = pcall(settings.get)
  if not good then
    error(tostring(config), { 'Fix vim.g.rephrase or the table given to require("rephrase").setup{}.' })
    return
  end
  ok('configuration is valid')
  if compat.has_lsp_config() then
    info('Neovim 0.11+: enable with vim.lsp.enable("rephrase") or require("rephrase").setup()')
  else
    info('Neovim < 0.11: enable with require("rephrase").setup()')
  end

  start('rephrase: server')
  local cmd, why = settings.server_cmd(config)
  if not cmd then
    error(why, { 'pipx install rephrase-ls', 'or set cmd = { "/path/to/rephrase-ls" } in vim.g.rephrase' })
    return
  end
  ok('server command: ' .. table.concat(cmd, ' '))
  local output = vim.fn.system(version_command(cmd))
  if vim.v.shell_error == 0 and output:match('rephrase%-ls') then
    ok('version: ' .. vim.trim(output))
  else
    error('"' .. table.concat(version_command(cmd), ' ') .. '" failed: ' .. vim.trim(output))
    return
  end

  local enabled = compat.has_lsp_config() and vim.lsp.config[settings.NAME]
  if type(enabled) == 'table' and type(enabled.cmd) == 'table' and vim.fn.executable(enabled.cmd[1]) ~= 1 then
    warn(('vim.lsp.enable("rephrase") alone would run "%s", which is not executable'):format(enabled.cmd[1]), {
      'require("rephrase").setup() finds the server as above',
      'or vim.lsp.config("rephrase", { cmd = { "/path/to/rephrase-ls" } })',
    })
  end

  start('rephrase: API key')
  local variable = config.settings.apiKeyEnv or 'REPHRASE_API_KEY'
  local from_config = config.cmd_env and config.cmd_env[variable]
  local present = (from_config ~= nil and from_config ~= '') or (vim.env[variable] ~= nil and vim.env[variable] ~= '')
  if present then
    ok(variable .. ' is set (value not shown): the rephrase service is used')
  else
    info(variable .. ' is not set: the embedded offline service is used (no network, no account)')
  end

  start('rephrase: backend')
  local bufnr = vim.api.nvim_get_current_buf()
  local client = rephrase.get_client(bufnr)
  if not client then
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      client = rephrase.get_client(buf)
      if client then
        bufnr = buf
        break
      end
    end
  end
  local usage, err
  if client then
    usage, err = usage_from(client, bufnr)
  else
    info('no buffer has the server attached; starting one to ask the backend')
    usage, err = usage_from_new_server(config)
  end
  if usage then
    info('backend: ' .. tostring(value(usage.backend) or 'unknown')
      .. (value(usage.embedded) and ' (no API key: the embedded offline service)' or ''))
  end
  if usage and present and tostring(value(usage.backend) or ''):find('offline') then
    warn(variable .. ' is set but the server uses the offline service',
      { 'Check the apiKeyEnv setting, and that Neovim was started with the variable exported' })
  elseif usage then
    ok('backend reachable: ' .. rephrase.format_usage(usage))
  else
    error('backend not reachable: ' .. tostring(err), { 'Check serverUrl and the key; see :LspLog' })
  end

  if #rephrase.shortened > 0 then
    start('rephrase: messages shortened on the command line')
    for _, text in ipairs(rephrase.shortened) do
      info(text)
    end
  end
end

return M
