-- rephrase.nvim: a thin Neovim client for the rephrase-ls language server.
--
-- Neovim 0.11+: `vim.lsp.enable('rephrase')` (lsp/rephrase.lua) or `require('rephrase').setup()`.
-- Neovim 0.7 to 0.10: `require('rephrase').setup()` starts the server for the file types.
-- Every behaviour lives in the server; this module starts it, shows pickers and calls its
-- commands.

local M = {}

local NAME = 'rephrase'
local INSTALL_HINT = 'Install it with "pipx install rephrase-ls" (or "pip install rephrase-ls"), '
  .. 'or set cmd in vim.g.rephrase / require("rephrase").setup{}.'

--- Defaults; `vim.g.rephrase` and `setup{}` override them (deep merge, setup last).
M.defaults = {
  -- The server command; nil: `rephrase-ls` from PATH, else `python3 -m rephrase_ls`.
  cmd = nil,
  -- Extra environment for the server process (e.g. { REPHRASE_API_KEY = os.getenv('MY_KEY') }).
  cmd_env = nil,
  filetypes = { 'markdown', 'text', 'gitcommit', 'rst', 'tex', 'plaintex', 'mail' },
  root_markers = { '.rephrase.toml', '.git' },
  -- The server's settings (the `rephrase` section), e.g. { language = 'de', tone = 'friendly' }.
  settings = {},
  -- Start the server for those file types from setup() (Neovim < 0.11 and >= 0.11 alike).
  autostart = true,
  -- Save `.rephrase.toml` after the server changed it for :Rephrase style/tone/language.
  save_project_file = true,
  on_attach = nil,
  capabilities = nil,
}

local has = function(feature)
  return vim.fn.has(feature) == 1
end

--- `text` made to fit in `width` display cells: itself, else its first sentence, else that or the
--- whole without parenthesised asides, else cut at a word (ending with "…").
function M.fit_message(text, width)
  local fits = function(candidate)
    return vim.fn.strdisplaywidth(candidate) <= width
  end
  if fits(text) then
    return text
  end
  local first = text:match('^(.-[.!?])%s') or text
  local candidates = { first, (first:gsub('%s*%b()', '')), (text:gsub('%s*%b()', '')) }
  for _, candidate in ipairs(candidates) do
    if fits(candidate) then
      return candidate
    end
  end
  local out = ''
  for _, word in ipairs(vim.split(candidates[2], ' ', { plain = true })) do
    local longer = out == '' and word or (out .. ' ' .. word)
    if not fits(longer .. '…') then
      break
    end
    out = longer
  end
  return out .. '…'
end

--- The last messages shortened on the command line, whole (`:checkhealth rephrase` lists them).
M.shortened = {}

--- Tells the writer something. An error or warning is shown whole; an information that does not
--- fit on the command line is shown shortened, so that it never stops Neovim at a
--- "Press ENTER" prompt, and kept whole in M.shortened.
local function notify(message, level)
  level = level or vim.log.levels.INFO
  local text = 'rephrase: ' .. message
  local width = math.max((vim.v.echospace or vim.o.columns - 12) - 1, 20)
  if level >= vim.log.levels.WARN or vim.fn.strdisplaywidth(text) <= width then
    vim.notify(text, level)
    return
  end
  table.insert(M.shortened, text)
  if #M.shortened > 20 then
    table.remove(M.shortened, 1)
  end
  vim.notify(M.fit_message(text, width), level)
end
M._notify = notify

--- The `window/showMessage` handler: the server's messages through notify (Neovim 0.7 prints
--- them with nvim_out_write, which a long message turns into a "Press ENTER" prompt).
function M.on_show_message(_, params)
  if type(params) ~= 'table' or type(params.message) ~= 'string' then
    return vim.NIL
  end
  local levels = { vim.log.levels.ERROR, vim.log.levels.WARN }
  local message = params.message:gsub('^rephrase%-ls: ', ''):gsub('^rephrase: ', '')
  notify(message, levels[params.type] or vim.log.levels.INFO)
  return vim.NIL
end

--- nil for JSON null (vim.NIL) and nil.
local function value(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

local function validate_config(config)
  local ok, err = pcall(vim.validate, {
    cmd = { config.cmd, 'table', true },
    cmd_env = { config.cmd_env, 'table', true },
    filetypes = { config.filetypes, 'table' },
    root_markers = { config.root_markers, 'table' },
    settings = { config.settings, 'table' },
    autostart = { config.autostart, 'boolean' },
    save_project_file = { config.save_project_file, 'boolean' },
    on_attach = { config.on_attach, 'function', true },
    capabilities = { config.capabilities, 'table', true },
  })
  if not ok then
    error('rephrase: invalid configuration: ' .. tostring(err), 0)
  end
  if config.cmd ~= nil then
    if #config.cmd == 0 then
      error('rephrase: invalid configuration: cmd must name a program', 0)
    end
    for _, part in ipairs(config.cmd) do
      if type(part) ~= 'string' then
        error('rephrase: invalid configuration: cmd must be a list of strings', 0)
      end
    end
  end
end

local user_config = {}

--- The effective configuration: defaults < vim.g.rephrase < setup{}.
function M.config()
  local global = vim.g.rephrase
  if global ~= nil and type(global) ~= 'table' then
    error('rephrase: vim.g.rephrase must be a table', 0)
  end
  local config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), global or {}, user_config)
  -- Lists replace, they do not merge by index.
  for _, key in ipairs({ 'cmd', 'filetypes', 'root_markers' }) do
    local from = user_config[key] or (global or {})[key]
    if from ~= nil then
      config[key] = from
    end
  end
  validate_config(config)
  return config
end

local resolved_cmd = nil

--- The server command: the configured one, `rephrase-ls` from PATH, or python3 -m rephrase_ls.
--- Returns nil and a message when nothing can start the server.
function M.server_cmd(config)
  config = config or M.config()
  if config.cmd then
    if vim.fn.executable(config.cmd[1]) ~= 1 then
      return nil, ('"%s" is not executable. %s'):format(config.cmd[1], INSTALL_HINT)
    end
    return config.cmd
  end
  if resolved_cmd then
    return resolved_cmd
  end
  if vim.fn.executable('rephrase-ls') == 1 then
    resolved_cmd = { 'rephrase-ls' }
    return resolved_cmd
  end
  -- `-P`: Python would otherwise put the current folder (a cloned repository, often) first on
  -- sys.path, and a `rephrase_ls/` planted there would run instead of the installed server.
  -- An interpreter older than 3.11 does not know -P; rephrase_ls needs 3.11 anyway.
  for _, python in ipairs({ 'python3', 'python' }) do
    if vim.fn.executable(python) == 1 then
      vim.fn.system({ python, '-P', '-c', 'import rephrase_ls' })
      if vim.v.shell_error == 0 then
        resolved_cmd = { python, '-P', '-m', 'rephrase_ls' }
        return resolved_cmd
      end
    end
  end
  return nil, 'rephrase-ls was not found on PATH and python3 cannot import rephrase_ls. ' .. INSTALL_HINT
end

--- The `settings` table sent to the server: `{ rephrase = {...} }`, never an empty list.
local function server_settings(config)
  local section = vim.deepcopy(config.settings or {})
  if next(section) == nil then
    section = vim.empty_dict()
  end
  return { rephrase = section }
end

--- Client capabilities: Neovim's own, plus
--- - versioned `documentChanges`, which every Neovim since 0.5 applies but 0.7 to 0.9 do not
---   advertise; with it the server pins each edit to the document version, so Neovim refuses an
---   edit made stale by typing;
--- - `workspace/configuration`, answered by M.on_configuration: Neovim 0.7 does not advertise it
---   (nor send the settings by itself), so without it the server would never see `settings`.
function M.capabilities(config)
  local base = vim.lsp.protocol.make_client_capabilities()
  local ours = {
    workspace = {
      workspaceEdit = { documentChanges = true },
      configuration = true,
      didChangeConfiguration = { dynamicRegistration = false },
    },
  }
  return vim.tbl_deep_extend('force', base, ours, config.capabilities or {})
end

--- The settings a client currently has (`client.settings` on 0.11, `client.config.settings` before).
local function client_settings(client)
  return value(client.settings) or value(client.config and client.config.settings) or {}
end

--- The `workspace/configuration` handler: each item's section of the client's settings (the
--- whole settings for an empty section), null where there is none.
function M.on_configuration(_, params, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local settings = client and client_settings(client) or {}
  local answer = {}
  for _, item in ipairs(type(params) == 'table' and value(params.items) or {}) do
    local found = settings
    local section = value(item.section)
    if type(section) == 'string' and section ~= '' then
      for _, part in ipairs(vim.split(section, '.', { plain = true })) do
        found = type(found) == 'table' and found[part] or nil
      end
    end
    table.insert(answer, found == nil and vim.NIL or found)
  end
  return answer
end

--- The handlers every rephrase client gets.
local function handlers()
  return {
    ['workspace/applyEdit'] = M.on_apply_edit,
    ['workspace/configuration'] = M.on_configuration,
    ['window/showMessage'] = M.on_show_message,
  }
end

--- A vim.lsp.Config for Neovim 0.11+ (`lsp/rephrase.lua` returns this).
function M.lsp_config()
  local config = M.config()
  local cmd, err = M.server_cmd(config)
  local lsp = {
    cmd = cmd or config.cmd or { 'rephrase-ls' },
    cmd_env = config.cmd_env,
    filetypes = config.filetypes,
    root_markers = config.root_markers,
    settings = server_settings(config),
    -- The same settings as launch options: the server takes where text and the key go
    -- (serverUrl, apiKeyEnv, ...) only from these, never from a folder's settings.
    init_options = server_settings(config),
    on_attach = config.on_attach,
    capabilities = M.capabilities(config),
    handlers = handlers(),
  }
  if not cmd then
    lsp.cmd = function()
      error('rephrase: ' .. err, 0)
    end
  end
  return lsp
end

--- The folder holding one of the root markers, searched upwards from the buffer's file.
function M.root_dir(bufnr, markers)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= '' and vim.fn.fnamemodify(name, ':p:h') or vim.fn.getcwd()
  local current = dir
  while true do
    for _, marker in ipairs(markers) do
      if (vim.uv or vim.loop).fs_stat(current .. '/' .. marker) then
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

--- Calls a method of a client object on every Neovim version (0.11 uses `client:method()`).
local function call(client, method, ...)
  if has('nvim-0.11') then
    return client[method](client, ...)
  end
  return client[method](...)
end
M._call = call

--- The running rephrase client for `bufnr` (or any rephrase client when bufnr is nil).
function M.get_client(bufnr)
  local clients
  if vim.lsp.get_clients then
    clients = vim.lsp.get_clients({ name = NAME, bufnr = bufnr })
  elseif bufnr then
    clients = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  else
    clients = vim.lsp.get_active_clients()
  end
  for _, client in ipairs(clients) do
    if client.name == NAME and not call(client, 'is_stopped') then
      return client
    end
  end
  return nil
end

--- Client ids started for each buffer by M.start (Neovim 0.7 lists a client only once it is
--- initialised; vim.lsp.get_client_by_id finds it before).
M._starting = {}

--- Starts (or reuses) the server for `bufnr`; returns the client id, or nil and a message.
function M.start(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local config = M.config()
  -- Neovim 0.11+: start from the resolved vim.lsp.config('rephrase'), so overrides made there
  -- (cmd, settings, ...) hold after :Rephrase restart too.
  local resolved = vim.lsp.config and vim.lsp.enable and vim.lsp.config[NAME]
  if type(resolved) == 'table' and resolved.cmd then
    local client_config = vim.deepcopy(resolved)
    client_config.name = NAME
    if type(client_config.root_dir) ~= 'string' then
      client_config.root_dir = M.root_dir(bufnr, client_config.root_markers or config.root_markers)
    end
    return vim.lsp.start(client_config, { bufnr = bufnr })
  end
  local cmd, err = M.server_cmd(config)
  if not cmd then
    return nil, err
  end
  local client_config = {
    name = NAME,
    cmd = cmd,
    cmd_env = config.cmd_env,
    root_dir = M.root_dir(bufnr, config.root_markers),
    settings = server_settings(config),
    -- The same settings as launch options: the server takes where text and the key go
    -- (serverUrl, apiKeyEnv, ...) only from these, never from a folder's settings.
    init_options = server_settings(config),
    on_attach = config.on_attach,
    capabilities = M.capabilities(config),
    handlers = handlers(),
  }
  if vim.lsp.start then
    return vim.lsp.start(client_config, { bufnr = bufnr })
  end
  -- Neovim 0.7: one client per root, attached by hand.
  for _, client in pairs(vim.lsp.get_active_clients()) do
    if client.name == NAME and client.config.root_dir == client_config.root_dir and not client.is_stopped() then
      vim.lsp.buf_attach_client(bufnr, client.id)
      return client.id
    end
  end
  local id = vim.lsp.start_client(client_config)
  if not id then
    return nil, 'the server did not start (see :LspLog)'
  end
  vim.lsp.buf_attach_client(bufnr, id)
  M._starting[bufnr] = id
  return id
end

local augroup = nil

--- Gives running rephrase clients new settings and tells their servers
--- (`workspace/didChangeConfiguration`; the server then asks again with workspace/configuration).
function M.push_settings(settings)
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = NAME }) or vim.lsp.get_active_clients()
  for _, client in ipairs(all) do
    if client.name == NAME and not call(client, 'is_stopped') then
      client.config.settings = vim.deepcopy(settings)
      if client.settings ~= nil then
        client.settings = vim.deepcopy(settings)
      end
      call(client, 'notify', 'workspace/didChangeConfiguration', { settings = settings })
    end
  end
end

--- Configures the plugin and starts the server for the configured file types.
function M.setup(opts)
  if opts ~= nil and type(opts) ~= 'table' then
    error('rephrase: setup() takes a table', 0)
  end
  user_config = vim.deepcopy(opts or {})
  resolved_cmd = nil
  local config = M.config()
  M.push_settings(server_settings(config))
  if vim.lsp.config and vim.lsp.enable then
    -- Replaced, not merged: a setting left out of this setup{} must not survive from the last.
    vim.lsp.config[NAME] = M.lsp_config()
    if config.autostart then
      vim.lsp.enable(NAME)
    end
    return
  end
  augroup = vim.api.nvim_create_augroup('rephrase', { clear = true })
  if not config.autostart then
    return
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = augroup,
    pattern = config.filetypes,
    callback = function(args)
      if vim.bo[args.buf].buftype ~= '' then
        return
      end
      local id, err = M.start(args.buf)
      if not id then
        notify(err, vim.log.levels.ERROR)
      end
    end,
  })
  -- Buffers already open when setup() ran.
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.tbl_contains(config.filetypes, vim.bo[buf].filetype) then
      M.start(buf)
    end
  end
end

-- Positions -------------------------------------------------------------------------------------

--- The LSP column of byte `byte_col` of `line` in `encoding` ('utf-8', 'utf-16' or 'utf-32').
local function lsp_col(line, byte_col, encoding)
  if byte_col <= 0 then
    return 0
  end
  if byte_col >= #line then
    byte_col = #line
  end
  if encoding == 'utf-8' then
    return byte_col
  end
  if has('nvim-0.11') then
    return vim.str_utfindex(line, encoding, byte_col, false)
  end
  local utf32, utf16 = vim.str_utfindex(line, byte_col)
  return encoding == 'utf-32' and utf32 or utf16
end
M._lsp_col = lsp_col

local function get_line(bufnr, row)
  return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
end

--- The LSP range for a command: a visual selection, whole lines, or the cursor.
--- `line1`/`line2` are 1-based; `range` is the count of range items the command got (0, 1, 2);
--- `encoding` is the client's position encoding (default utf-16).
function M.command_range(bufnr, range, line1, line2, encoding)
  encoding = encoding or 'utf-16'
  local col = function(line, byte_col)
    return lsp_col(line, byte_col, encoding)
  end
  if range == nil or range == 0 then
    local cursor = vim.api.nvim_win_get_cursor(0)
    local row = cursor[1] - 1
    local character = col(get_line(bufnr, row), cursor[2])
    local pos = { line = row, character = character }
    return { start = pos, ['end'] = pos }
  end
  local vstart = vim.api.nvim_buf_get_mark(bufnr, '<')
  local vend = vim.api.nvim_buf_get_mark(bufnr, '>')
  local mode = vim.fn.visualmode()
  if mode == 'v' and vstart[1] == line1 and vend[1] == line2 then
    -- Charwise selection: include the whole last character.
    local last = get_line(bufnr, vend[1] - 1)
    local end_byte = math.min(vend[2], #last)
    if end_byte < #last then
      end_byte = end_byte + #vim.fn.strcharpart(last:sub(end_byte + 1), 0, 1)
    end
    return {
      start = { line = vstart[1] - 1, character = col(get_line(bufnr, vstart[1] - 1), vstart[2]) },
      ['end'] = { line = vend[1] - 1, character = col(last, end_byte) },
    }
  end
  local last = get_line(bufnr, line2 - 1)
  return {
    start = { line = line1 - 1, character = 0 },
    ['end'] = { line = line2 - 1, character = col(last, #last) },
  }
end

-- Requests ---------------------------------------------------------------------------------------

local function not_running(bufnr)
  notify('the server is not running for this buffer (filetype "' .. vim.bo[bufnr].filetype
    .. '"); see :checkhealth rephrase', vim.log.levels.WARN)
end

--- Whether a rephrase client exists for `bufnr` that has not finished starting.
local function is_starting(bufnr)
  local id = M._starting[bufnr]
  local client = id and vim.lsp.get_client_by_id(id)
  if client and not call(client, 'is_stopped') and not client.initialized then
    return true
  end
  if vim.lsp.get_clients then
    for _, c in ipairs(vim.lsp.get_clients({ name = NAME })) do
      if not c.initialized and not call(c, 'is_stopped') then
        return true
      end
    end
  end
  return false
end

--- How long a command waits for the server to start, and for any client to appear at all.
M.ready_timeout_ms = 30000
M.appear_timeout_ms = 3000

--- Runs `fn(client)` with the buffer's client: now when it is ready, else once the server that
--- is starting for the buffer is (saying so). `fail()` runs when there is none.
function M.when_ready(bufnr, what, fn, fail)
  fail = fail or function() end
  local client = M.get_client(bufnr)
  if client then
    fn(client)
    return true
  end
  local ok, config = pcall(M.config)
  local expected = ok and vim.tbl_contains(config.filetypes, vim.bo[bufnr].filetype)
  if not (expected or is_starting(bufnr)) then
    not_running(bufnr)
    fail()
    return false
  end
  notify(('server starting; %s will run when it is ready'):format(what))
  local waited, seen = 0, false
  local step = 50
  local function poll()
    if not vim.api.nvim_buf_is_valid(bufnr) then
      return fail()
    end
    local ready = M.get_client(bufnr)
    if ready then
      return fn(ready)
    end
    seen = seen or is_starting(bufnr)
    waited = waited + step
    if (not seen and waited >= M.appear_timeout_ms) or waited >= M.ready_timeout_ms then
      if seen then
        notify(('the server did not get ready in %d s; see :LspLog and :checkhealth rephrase'):format(
          M.ready_timeout_ms / 1000), vim.log.levels.ERROR)
      else
        not_running(bufnr)
      end
      return fail()
    end
    vim.defer_fn(poll, step)
  end
  vim.defer_fn(poll, step)
  return true
end

local function error_text(err)
  if type(err) == 'table' then
    return value(err.message) or vim.inspect(err)
  end
  return tostring(err)
end

--- Runs a server command (once the server is ready); `callback(result)` on success, a
--- notification on failure, `fail()` when there is no server.
function M.exec(bufnr, command, arguments, callback, fail)
  return M.when_ready(bufnr, command, function(client)
    call(client, 'request', 'workspace/executeCommand', { command = command, arguments = arguments },
      function(err, result)
        if err then
          notify(command .. ': ' .. error_text(err), vim.log.levels.ERROR)
          return
        end
        callback(result)
      end, bufnr)
  end, fail)
end

--- The document version the client last sent for `bufnr`.
function M.buf_version(bufnr)
  local versions = vim.lsp.util.buf_versions
  local version = versions and versions[bufnr]
  if version == nil then
    version = vim.api.nvim_buf_get_changedtick(bufnr)
  end
  return version
end

--- True when `edit` changes `bufnr` at a version older than the buffer's.
function M.edit_is_stale(edit, bufnr)
  local uri = vim.uri_from_bufnr(bufnr)
  local current = M.buf_version(bufnr)
  for _, change in ipairs(value(edit.documentChanges) or {}) do
    local doc = value(change.textDocument)
    local version = doc and value(doc.version)
    if doc and doc.uri == uri and type(version) == 'number' and version < current then
      return true
    end
  end
  return false
end

--- The `workspace/applyEdit` handler: like Neovim's, but refuses an edit pinned to an older
--- version of a loaded buffer (Neovim 0.7 to 0.10 apply edits pinned to version 0 regardless).
function M.on_apply_edit(_, params, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client or type(params) ~= 'table' or type(params.edit) ~= 'table' then
    return { applied = false, failureReason = 'no edit' }
  end
  for _, change in ipairs(value(params.edit.documentChanges) or {}) do
    local doc = value(change.textDocument)
    local version = doc and value(doc.version)
    if doc and type(version) == 'number' then
      local bufnr = vim.uri_to_bufnr(doc.uri)
      if vim.api.nvim_buf_is_loaded(bufnr) and version < M.buf_version(bufnr) then
        notify('the buffer changed while the text was being improved; nothing was applied. Try again.',
          vim.log.levels.WARN)
        return { applied = false, failureReason = 'the document changed since the edit was computed' }
      end
    end
  end
  -- Files the edit creates: empty until it fills them.
  local created = {}
  for _, change in ipairs(value(params.edit.documentChanges) or {}) do
    if change.kind == 'create' and type(change.uri) == 'string' then
      local stat = (vim.uv or vim.loop).fs_stat(vim.uri_to_fname(change.uri))
      if not stat or stat.size == 0 then
        table.insert(created, change.uri)
      end
    end
  end
  local ok, err = pcall(vim.lsp.util.apply_workspace_edit, params.edit, client.offset_encoding)
  if not ok then
    return { applied = false, failureReason = tostring(err) }
  end
  for _, uri in ipairs(created) do
    M._drop_new_buffer_line(vim.uri_to_bufnr(uri))
  end
  return { applied = true }
end

--- A new buffer has one empty line, which text inserted before it keeps: "a = 1\n" inserted into
--- a created file gives the lines { 'a = 1', '' }, saved as "a = 1\n\n". Drops that line.
function M._drop_new_buffer_line(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  local last = vim.api.nvim_buf_get_lines(bufnr, count - 1, count, false)[1]
  if count > 1 and last == '' then
    vim.api.nvim_buf_set_lines(bufnr, count - 1, count, false, {})
  end
end

local function supports_resolve(client)
  local provider = client.server_capabilities and client.server_capabilities.codeActionProvider
  if not provider and client.resolved_capabilities then -- Neovim 0.7
    provider = client.resolved_capabilities.code_action
  end
  return type(provider) == 'table' and provider.resolveProvider == true
end

--- Applies a (resolved) code action. Returns 'applied', 'stale' or 'none'.
--- `tick` is the buffer's changedtick when the actions were asked for (a change since then makes
--- the edit stale even when it carries no version).
function M.apply_action(client, bufnr, action, tick)
  local edit = value(action.edit)
  if edit then
    if M.edit_is_stale(edit, bufnr) or (tick and vim.api.nvim_buf_get_changedtick(bufnr) ~= tick) then
      notify('the buffer changed while the text was being improved; nothing was applied. Try again.',
        vim.log.levels.WARN)
      return 'stale'
    end
    vim.lsp.util.apply_workspace_edit(edit, client.offset_encoding)
  end
  local command = value(action.command)
  if type(command) == 'table' then
    call(client, 'request', 'workspace/executeCommand',
      { command = command.command, arguments = value(command.arguments) }, function(err)
        if err then
          notify(error_text(err), vim.log.levels.ERROR)
        end
      end, bufnr)
  end
  if not edit and type(command) ~= 'table' then
    return 'none'
  end
  return 'applied'
end

--- Asks for the code actions of `range`, picks the one titled `title` ("Improve" by default),
--- resolves it when needed and applies it. `done(status)` gets 'applied', 'stale', 'none' or
--- 'error'.
function M.improve(opts)
  opts = opts or {}
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local done = opts.done or function() end
  local title = opts.title or 'Improve'
  -- The range as it is now, in each position encoding: the server may not be ready yet.
  local ranges = opts.ranges
  if not ranges and not opts.range then
    ranges = {}
    for _, encoding in ipairs({ 'utf-8', 'utf-16', 'utf-32' }) do
      ranges[encoding] = M.command_range(bufnr, 0, nil, nil, encoding)
    end
  end
  M.when_ready(bufnr, title, function(client)
    local range = opts.range or ranges[client.offset_encoding] or ranges['utf-16']
    M._improve_with(client, bufnr, title, range, opts.kind, done)
  end, function()
    done('error')
  end)
end

--- M.improve once the client is ready.
function M._improve_with(client, bufnr, title, range, kind, done)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = range,
    context = { diagnostics = {}, only = { kind or 'refactor.rewrite' } },
  }
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  call(client, 'request', 'textDocument/codeAction', params, function(err, actions)
    if err then
      notify(error_text(err), vim.log.levels.ERROR)
      return done('error')
    end
    local chosen = nil
    for _, action in ipairs(value(actions) or {}) do
      if action.title == title then
        chosen = action
        break
      end
    end
    if not chosen then
      notify('nothing to improve here ("' .. title .. '" is not offered for this text).')
      return done('none')
    end
    if value(chosen.edit) == nil and value(chosen.data) ~= nil and supports_resolve(client) then
      call(client, 'request', 'codeAction/resolve', chosen, function(rerr, resolved)
        if rerr then
          notify(error_text(rerr), vim.log.levels.ERROR)
          return done('error')
        end
        done(M.apply_action(client, bufnr, resolved, tick))
      end, bufnr)
    else
      done(M.apply_action(client, bufnr, chosen, tick))
    end
  end, bufnr)
end

-- Pickers ----------------------------------------------------------------------------------------

--- Writes the buffer of the project file the server just edited, so it reaches the disk.
function M.save_project_file(file_uri)
  if type(file_uri) ~= 'string' or not M.config().save_project_file then
    return
  end
  local fname = vim.uri_to_fname(file_uri)
  local buf = vim.fn.bufnr(fname)
  if buf == -1 or not vim.api.nvim_buf_is_loaded(buf) or not vim.bo[buf].modified then
    return
  end
  vim.api.nvim_buf_call(buf, function()
    vim.cmd('silent write')
  end)
end

local function after_set(noun, choice, result)
  result = value(result)
  if type(result) ~= 'table' or type(result.applied) ~= 'boolean' then
    notify('unexpected answer from the server: ' .. vim.inspect(result), vim.log.levels.ERROR)
    return
  end
  if not result.applied then
    notify(noun .. ' not changed: ' .. (value(result.reason) or 'the edit was refused'), vim.log.levels.WARN)
    return
  end
  M.save_project_file(value(result.file))
  local file = value(result.file)
  local where = file and (' in ' .. vim.fn.fnamemodify(vim.uri_to_fname(file), ':~:.')) or ''
  notify(noun .. ' set to ' .. (choice or 'default') .. where)
end

local KINDS = {
  writingStyle = { noun = 'writing style', list = 'writingStyles', set = 'rephrase.setStyle' },
  tone = { noun = 'tone', list = 'tones', set = 'rephrase.setTone' },
}

--- :Rephrase style / :Rephrase tone — a vim.ui.select picker filled from rephrase.listStyles.
function M.pick_style(kind, bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  done = done or function() end
  local spec = KINDS[kind]
  assert(spec, 'kind must be writingStyle or tone')
  local uri = vim.uri_from_bufnr(bufnr)
  return M.exec(bufnr, 'rephrase.listStyles', { uri }, function(info)
    if type(info) ~= 'table' then
      notify('unexpected answer from the server: ' .. vim.inspect(info), vim.log.levels.ERROR)
      return done(nil)
    end
    local language = value(info.language) or 'this document'
    if not value(info.supported) then
      notify(value(info.reason) or (language .. ' has no writing styles or tones'), vim.log.levels.WARN)
      return done(nil)
    end
    local items = vim.deepcopy(value(info[spec.list]) or {})
    if #items == 0 then
      notify('no ' .. spec.noun .. ' is available for ' .. language, vim.log.levels.WARN)
      return done(nil)
    end
    table.insert(items, 'default')
    local current = value((value(info.current) or {})[kind])
    vim.ui.select(items, {
      prompt = ('Rephrase: %s for %s'):format(spec.noun, language),
      format_item = function(item)
        if item == current or (item == 'default' and current == nil) then
          return item .. ' (current)'
        end
        return item
      end,
    }, function(choice)
      if not choice then
        return done(nil)
      end
      M.exec(bufnr, spec.set, { uri, choice }, function(result)
        after_set(spec.noun, choice, result)
        done(choice)
      end)
    end)
  end)
end

--- :Rephrase language — the server's targets plus automatic detection.
function M.pick_language(bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  done = done or function() end
  local uri = vim.uri_from_bufnr(bufnr)
  local auto = 'auto (detect)'
  return M.exec(bufnr, 'rephrase.listStyles', { uri }, function(info)
    if type(info) ~= 'table' then
      notify('unexpected answer from the server: ' .. vim.inspect(info), vim.log.levels.ERROR)
      return done(nil)
    end
    local items = { auto }
    for _, target in ipairs(value(info.targets) or {}) do
      local code = type(target) == 'table' and (target.lang or target.language) or target
      if type(code) == 'string' then
        table.insert(items, code)
      end
    end
    local current = value(info.language)
    vim.ui.select(items, {
      prompt = 'Rephrase: language of the document',
      format_item = function(item)
        return item == current and (item .. ' (current)') or item
      end,
    }, function(choice)
      if not choice then
        return done(nil)
      end
      local arg = choice == auto and vim.NIL or choice
      M.exec(bufnr, 'rephrase.setLanguage', { uri, arg }, function(result)
        after_set('language', choice == auto and 'automatic detection' or choice, result)
        done(choice)
      end)
    end)
  end)
end

local function group_digits(n)
  local s = tostring(math.floor(n))
  local out = s:reverse():gsub('(%d%d%d)', '%1,'):reverse()
  return (out:gsub('^,', ''))
end

--- One line about the usage figures returned by `rephrase.usage`.
function M.format_usage(usage)
  local backend = value(usage.backend) or 'service'
  local who = backend == 'service' and 'the rephrase service' or ('the ' .. backend .. ' service')
  local count = value(usage.characterCount)
  local limit = value(usage.characterLimit)
  if type(count) ~= 'number' then
    return ('Rephrase uses %s; it reported no character count.'):format(who)
  end
  if type(limit) ~= 'number' then
    return ('Rephrase uses %s: %s characters used this period (no limit).'):format(who, group_digits(count))
  end
  local percent = limit > 0 and (100 * count / limit) or 100
  return ('Rephrase uses %s: %s characters used of %s this period (%.1f %%).'):format(
    who, group_digits(count), group_digits(limit), percent)
end

--- :Rephrase usage
function M.usage(bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  done = done or function() end
  return M.exec(bufnr, 'rephrase.usage', { vim.uri_from_bufnr(bufnr) }, function(result)
    if type(result) ~= 'table' then
      notify('unexpected answer from the server: ' .. vim.inspect(result), vim.log.levels.ERROR)
      return done(nil)
    end
    local line = M.format_usage(result)
    notify(line)
    done(line)
  end)
end

--- :Rephrase restart — stops the server and starts it again for the buffers it served.
function M.restart(timeout_ms)
  local buffers, clients = {}, {}
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = NAME }) or vim.lsp.get_active_clients()
  for _, client in ipairs(all) do
    if client.name == NAME then
      table.insert(clients, client)
      local attached = client.attached_buffers or {}
      for buf in pairs(attached) do
        buffers[buf] = true
      end
    end
  end
  for _, client in ipairs(clients) do
    call(client, 'stop')
  end
  local stopped = vim.wait(timeout_ms or 5000, function()
    for _, client in ipairs(clients) do
      if not call(client, 'is_stopped') then
        return false
      end
    end
    return true
  end, 50)
  if not stopped then
    for _, client in ipairs(clients) do
      call(client, 'stop', true)
    end
  end
  resolved_cmd = nil
  if next(buffers) == nil then
    local current = vim.api.nvim_get_current_buf()
    if vim.tbl_contains(M.config().filetypes, vim.bo[current].filetype) then
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
        notify(err, vim.log.levels.ERROR)
      end
    end
  end
  notify(('server restarted for %d buffer(s)'):format(started))
  return started
end

-- :Rephrase --------------------------------------------------------------------------------------

M.subcommands = { 'improve', 'style', 'tone', 'language', 'usage', 'restart' }

local STYLE_AND_TONE_NAMES = {
  'simple', 'business', 'academic', 'casual', 'enthusiastic', 'friendly', 'confident', 'diplomatic',
}

--- Completion for :Rephrase.
function M.complete(arglead, cmdline)
  local words = vim.split(cmdline, '%s+', { trimempty = true })
  local candidates = M.subcommands
  local typing_first = #words <= 1 or (#words == 2 and arglead ~= '')
  if not typing_first and words[2] == 'improve' then
    candidates = STYLE_AND_TONE_NAMES
  elseif not typing_first then
    return {}
  end
  return vim.tbl_filter(function(item)
    return item:sub(1, #arglead) == arglead
  end, candidates)
end

--- The :Rephrase command (`opts` as given to nvim_create_user_command callbacks).
function M.command(opts)
  local args = vim.split(opts.args or '', '%s+', { trimempty = true })
  local sub = args[1] or 'improve'
  local bufnr = vim.api.nvim_get_current_buf()
  if sub == 'improve' then
    local title = args[2] and ('Improve: ' .. args[2]) or 'Improve'
    local ranges = {}
    for _, encoding in ipairs({ 'utf-8', 'utf-16', 'utf-32' }) do
      ranges[encoding] = M.command_range(bufnr, opts.range, opts.line1, opts.line2, encoding)
    end
    M.improve({ bufnr = bufnr, title = title, ranges = ranges })
  elseif sub == 'style' then
    M.pick_style('writingStyle', bufnr)
  elseif sub == 'tone' then
    M.pick_style('tone', bufnr)
  elseif sub == 'language' then
    M.pick_language(bufnr)
  elseif sub == 'usage' then
    M.usage(bufnr)
  elseif sub == 'restart' then
    M.restart()
  else
    notify(('unknown subcommand "%s"; use one of: %s'):format(sub, table.concat(M.subcommands, ', ')),
      vim.log.levels.ERROR)
  end
end

return M
