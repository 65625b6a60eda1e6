-- :checkhealth rephrase — server found, its version, the key variable, the backend reachable.
local M = {}

local h = vim.health or require('health') -- Neovim 0.7 has only the `health` module
local start = h.start or h.report_start
local ok = h.ok or h.report_ok
local info = h.info or h.report_info
local warn = h.warn or h.report_warn
local error = h.error or h.report_error

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
  local call = require('rephrase')._call
  local response, err = call(client, 'request_sync', 'workspace/executeCommand',
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
local function usage_from_new_server(rephrase, config, cmd)
  local client_config = {
    name = 'rephrase-health',
    cmd = cmd,
    cmd_env = config.cmd_env,
    root_dir = vim.fn.getcwd(),
    settings = { rephrase = next(config.settings) and config.settings or vim.empty_dict() },
    capabilities = rephrase.capabilities(config),
    handlers = { ['workspace/configuration'] = rephrase.on_configuration },
  }
  local id
  if vim.fn.has('nvim-0.11') == 1 then
    id = vim.lsp.start(client_config, { attach = false })
  else
    id = vim.lsp.start_client(client_config)
  end
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
  rephrase._call(client, 'stop')
  return result, err
end

function M.check()
  start('rephrase: configuration')
  local rephrase = require('rephrase')
  local good, config = pcall(rephrase.config)
  if not good then
    error(tostring(config), { 'Fix vim.g.rephrase or the table given to require("rephrase").setup{}.' })
    return
  end
  ok('configuration is valid')
  if vim.fn.has('nvim-0.11') == 1 then
    info('Neovim 0.11+: enable with vim.lsp.enable("rephrase") or require("rephrase").setup()')
  else
    info('Neovim < 0.11: enable with require("rephrase").setup()')
  end

  start('rephrase: server')
  local cmd, why = rephrase.server_cmd(config)
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
    usage, err = usage_from_new_server(rephrase, config, cmd)
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
