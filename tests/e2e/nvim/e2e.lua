-- Headless Neovim end-to-end cases for the rephrase plugin, run by tests/e2e/test_nvim.py:
--   nvim --headless --clean -u NONE -c 'luafile e2e.lua'
-- Environment: REPHRASE_TEST_CASE (the case), REPHRASE_TEST_PLUGIN (editor-clients/nvim),
-- REPHRASE_TEST_SERVER (the rephrase-ls program), REPHRASE_TEST_PROJECT (a folder with doc.md),
-- REPHRASE_TEST_EXPECT (a JSON file of expected texts), REPHRASE_TEST_RESULT (written on exit).
-- Every wait has a time-out; any failure ends Neovim with `cquit 1`.

local WAIT_MS = tonumber(os.getenv('REPHRASE_TEST_WAIT_MS') or '30000')
local result_file = assert(os.getenv('REPHRASE_TEST_RESULT'), 'REPHRASE_TEST_RESULT is not set')
local log = {}

local function note(fmt, ...)
  table.insert(log, string.format(fmt, ...))
end

local function finish(ok, message)
  local f = assert(io.open(result_file, 'w'))
  f:write((ok and 'PASS' or 'FAIL') .. '\n' .. table.concat(log, '\n') .. '\n' .. (message or '') .. '\n')
  f:close()
  if ok then
    vim.cmd('qall!')
  else
    vim.cmd('cquit 1')
  end
end

local function check(condition, fmt, ...)
  if not condition then
    error(string.format(fmt, ...), 2)
  end
end

local function eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    error(('%s:\n  expected %s\n  actual   %s'):format(what, vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

local function wait(what, predicate)
  local ok = vim.wait(WAIT_MS, predicate, 20)
  check(ok, 'timed out after %d ms waiting for %s', WAIT_MS, what)
end

local function read_json(path)
  local f = assert(io.open(path, 'r'))
  local text = f:read('*a')
  f:close()
  return vim.fn.json_decode(text)
end

local function read_file(path)
  local f = io.open(path, 'r')
  if not f then
    return nil
  end
  local text = f:read('*a')
  f:close()
  return text
end

local plugin = assert(os.getenv('REPHRASE_TEST_PLUGIN'))
local server = assert(os.getenv('REPHRASE_TEST_SERVER'))
local project = assert(os.getenv('REPHRASE_TEST_PROJECT'))
local expect = read_json(assert(os.getenv('REPHRASE_TEST_EXPECT')))

vim.opt.runtimepath:prepend(plugin)
vim.cmd('runtime plugin/rephrase.lua')
vim.cmd('filetype on')
local notifications = {}
vim.notify = function(msg, level)
  table.insert(notifications, { msg = msg, level = level })
  note('notify[%s]: %s', tostring(level), msg)
end

local rephrase = require('rephrase')
local compat = require('rephrase.compat')
local handlers = require('rephrase.handlers')

local function buffer_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n'
end

--- Edits doc.md and waits for the server to attach and initialise.
local function edit_attached()
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/doc.md'))
  local buf = vim.api.nvim_get_current_buf()
  eq(vim.bo[buf].filetype, 'markdown', 'filetype')
  wait('the server to attach', function()
    local client = rephrase.get_client(buf)
    return client ~= nil and client.initialized == true
  end)
  return buf, rephrase.get_client(buf)
end

--- Opens doc.md with the server attached and initialised (setup{} given `opts`).
local function open_document(opts)
  vim.g.rephrase = { cmd = { server }, settings = {} }
  rephrase.setup(opts or {})
  return edit_attached()
end

local function request(client, method, params, buf)
  local response, err = compat.call(client, 'request_sync', method, params, WAIT_MS, buf)
  check(response ~= nil, '%s: no response (%s)', method, tostring(err))
  check(response.err == nil, '%s failed: %s', method, vim.inspect(response.err))
  return response.result
end

local function line_range(buf, first, last)
  local last_line = vim.api.nvim_buf_get_lines(buf, last, last + 1, false)[1]
  local _, utf16 = vim.str_utfindex(last_line)
  return { start = { line = first, character = 0 }, ['end'] = { line = last, character = utf16 } }
end

local function code_actions(client, buf, range)
  return request(client, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = range,
    context = { diagnostics = {} },
  }, buf)
end

local function find(actions, title)
  for _, action in ipairs(actions or {}) do
    if action.title == title then
      return action
    end
  end
  error('no code action titled ' .. title .. ' among ' .. vim.inspect(vim.tbl_map(function(a)
    return a.title
  end, actions or {})))
end

local function list_styles(client, buf)
  return request(client, 'workspace/executeCommand',
    { command = 'rephrase.listStyles', arguments = { vim.uri_from_bufnr(buf) } }, buf)
end

local function titles_of(actions)
  return vim.tbl_map(function(a)
    return a.title
  end, actions or {})
end

--- The style picker's prompt, with vim.ui.select stubbed and dismissed.
local function style_prompt(buf)
  local prompt, done
  local select = vim.ui.select
  vim.ui.select = function(_, opts, on_choice)
    prompt = opts.prompt
    on_choice(nil, nil)
  end
  rephrase.pick_style('writingStyle', buf, function()
    done = true
  end)
  wait('the style picker', function()
    return done
  end)
  vim.ui.select = select
  return prompt
end

--- What the server does with `language = 'en-GB'` from the editor settings: listStyles, the
--- picker and the Convert action all follow it (the text itself is American English).
local function check_server_uses_en_gb(buf, client, how)
  local info = list_styles(client, buf)
  note('%s: listStyles says %s (from %s)', how, tostring(info.language), tostring(info.languageSource))
  eq({ info.language, info.languageSource }, { 'en-GB', 'settings' }, how .. ': the language the server uses')
  local prompt = style_prompt(buf)
  check(prompt:find('en-GB', 1, true) ~= nil, '%s: the picker says %s', how, prompt)
  local titles = titles_of(code_actions(client, buf, line_range(buf, expect.paragraph_line, expect.paragraph_line)))
  check(vim.tbl_contains(titles, 'Convert to en-US') and not vim.tbl_contains(titles, 'Convert to en-GB'),
    '%s: actions %s', how, table.concat(titles, ' | '))
end

local cases = {}

local function said(pattern)
  for _, n in ipairs(notifications) do
    if n.msg:find(pattern) then
      return n
    end
  end
  return nil
end

-- :Rephrase improve while the server is still starting says so, then runs once it is ready.
function cases.command_while_starting()
  vim.g.rephrase = { cmd = { 'sh', '-c', 'sleep 1; exec "$0"', server } }
  rephrase.setup({})
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/doc.md'))
  local buf = vim.api.nvim_get_current_buf()
  check(rephrase.get_client(buf) == nil, 'the server should still be starting')
  vim.api.nvim_win_set_cursor(0, { expect.paragraph_line + 1, 3 })
  vim.cmd('Rephrase improve')
  check(said('server starting') ~= nil, 'the writer was not told the server is starting')
  wait('the improvement once the server is ready', function()
    return buffer_text(buf) ~= expect.original
  end)
  eq(buffer_text(buf), expect.improved_first, 'buffer after :Rephrase improve during start-up')
  check(said('not running') == nil, 'a "not running" warning was shown')
  -- A buffer the server is not for is told so at once.
  vim.cmd('enew')
  vim.bo.filetype = 'lua'
  local failed = false
  rephrase.improve({ done = function(status)
    failed = status == 'error'
  end })
  check(failed and said('not running') ~= nil, 'no warning for a buffer the server is not for')
end

-- The server's long information messages fit the command line (no "Press ENTER"); the whole
-- text is in :messages; warnings and errors are shown whole.
function cases.short_notices()
  local buf = open_document()
  wait('the no-key notice', function()
    return said('offline') ~= nil
  end)
  local width = vim.v.echospace
  for _, n in ipairs(notifications) do
    if n.level == vim.log.levels.INFO then
      check(vim.fn.strdisplaywidth(n.msg) < width, 'wider than the command line (%d): %s', width, n.msg)
    end
  end
  local long = 'rephrase-ls: no API key found (environment variable REPHRASE_API_KEY); using the '
    .. 'embedded offline service. Set the key to use the rephrase service.'
  handlers.show_message(nil, { type = 3, message = long }, {})
  local shown = notifications[#notifications].msg
  note('shown: %s', shown)
  check(vim.fn.strdisplaywidth(shown) < width and shown:find('^rephrase: no API key found; using the embedded'),
    'short notice: %s', shown)
  local text = 'rephrase: ' .. long:sub(#'rephrase-ls: ' + 1)
  local sentence = 'rephrase: no API key found; using the embedded offline service.'
  eq(rephrase.fit_message(text, 200), text, 'a text that fits')
  eq(rephrase.fit_message(text, 67), sentence, 'first sentence, no aside')
  eq(rephrase.shortened[#rephrase.shortened], text, 'the whole text kept')
  vim.cmd('checkhealth rephrase')
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  check(report:find('Set the key to use the rephrase service.', 1, true) ~= nil, 'health lacks the whole text')
  vim.cmd('buffer ' .. buf)
  handlers.show_message(nil, { type = 1, message = long }, {})
  eq(notifications[#notifications].msg, 'rephrase: ' .. long:sub(#'rephrase-ls: ' + 1), 'an error in full')
  -- Cut at a word when nothing shorter fits.
  local cut = rephrase.fit_message('rephrase: ' .. string.rep('word ', 30), 40)
  check(vim.fn.strdisplaywidth(cut) <= 40 and cut:find('word…$'), 'cut: %s', cut)
  -- :Rephrase usage fits too.
  local line
  rephrase.usage(buf, function(l)
    line = l or false
  end)
  wait('usage', function()
    return line ~= nil
  end)
  check(vim.fn.strdisplaywidth(notifications[#notifications].msg) < width, 'usage line: %s',
    notifications[#notifications].msg)
end

-- Settings given to setup{} change what the server does, on every Neovim (0.7.2 neither
-- advertises workspace/configuration nor sends didChangeConfiguration by itself).
function cases.settings_reach_server()
  local buf, client = open_document({ settings = { language = 'en-GB' } })
  check_server_uses_en_gb(buf, client, 'setup{}')
  -- Without the setting the server detects American English: the test means something.
  vim.g.rephrase = { cmd = { server } }
  rephrase.setup({})
  vim.cmd('Rephrase restart')
  wait('a new client', function()
    local c = rephrase.get_client(buf)
    return c ~= nil and c.id ~= client.id and c.initialized == true
  end)
  client = rephrase.get_client(buf)
  local info = list_styles(client, buf)
  eq({ info.language, info.languageSource }, { 'en-US', 'detected' }, 'the language without the setting')
  -- setup{} again with new settings reaches the running server.
  rephrase.setup({ settings = { language = 'en-GB' } })
  check_server_uses_en_gb(buf, client, 'setup{} again, same server')
end

-- Neovim's own code action menu (vim.lsp.buf.code_action, the picker answered "Improve"): the
-- server resolves the edit lazily and Neovim applies it; the buffer is exactly right.
function cases.resolve_and_apply()
  local buf, client = open_document()
  eq(buffer_text(buf), expect.original, 'buffer before')
  local actions = code_actions(client, buf, line_range(buf, expect.paragraph_line, expect.paragraph_line))
  note('actions: %s', table.concat(titles_of(actions), ' | '))
  local action = find(actions, 'Improve')
  eq(action.kind, 'refactor.rewrite', 'kind of Improve')
  check(action.edit == nil, 'the client advertises resolveSupport, so the edit should come lazily')
  vim.api.nvim_win_set_cursor(0, { expect.paragraph_line + 1, 3 })
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = vim.tbl_map(opts.format_item, items)
    for i, item in ipairs(items) do
      local candidate = item.action or item[2] -- 0.10+: {action, ctx}; 0.7 to 0.9: {client_id, action}
      if type(candidate) == 'table' and candidate.title == 'Improve' then
        return on_choice(item, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.lsp.buf.code_action()
  wait('the improvement from the code action menu', function()
    return buffer_text(buf) ~= expect.original
  end)
  note('menu: %s', vim.inspect(offered))
  eq(buffer_text(buf), expect.improved_first, 'buffer after Improve')
end

-- :Rephrase improve over a visual line range keeps é and the emoji intact.
function cases.command_non_ascii()
  local buf = open_document()
  local line = expect.unicode_line + 1
  vim.api.nvim_win_set_cursor(0, { line, 0 })
  vim.cmd('normal! V')
  vim.cmd('normal! \27') -- leave visual mode so '< and '> are set
  vim.cmd(('%d,%dRephrase improve'):format(line, line))
  wait('the improvement of the non-ASCII paragraph', function()
    return buffer_text(buf) ~= expect.original
  end)
  eq(buffer_text(buf), expect.improved_unicode, 'buffer after :Rephrase improve')
  local text = buffer_text(buf)
  check(text:find('café', 1, true) and text:find('🎉', 1, true), 'é or the emoji got lost')
  -- The cursor form: an empty range gives the paragraph under the cursor.
  vim.api.nvim_win_set_cursor(0, { expect.paragraph_line + 1, 3 })
  local status
  rephrase.improve({ bufnr = buf, done = function(s)
    status = s
  end })
  wait('Improve at the cursor', function()
    return status ~= nil
  end)
  eq(status, 'applied', 'status of Improve at the cursor')
  eq(buffer_text(buf), expect.improved_both, 'buffer after both improvements')
end

-- An edit computed before the writer typed is not applied: the server's workspace/applyEdit is
-- refused (Neovim 0.7's own handler would apply it: it checks versions only above 0) and the
-- writer is told why.
function cases.stale_edit()
  local buf, client = open_document()
  local actions = code_actions(client, buf, line_range(buf, expect.paragraph_line, expect.paragraph_line))
  local resolved = request(client, 'codeAction/resolve', find(actions, 'Improve'), buf)
  check(type(resolved.edit) == 'table', 'resolve gave no edit')
  check(type(resolved.edit.documentChanges) == 'table', 'the edit should be pinned to a version')
  check(not handlers.edit_is_stale(resolved.edit, buf), 'the edit is fresh before typing')
  -- The writer types on the first line (a heading) before the edit arrives.
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  vim.api.nvim_feedkeys('A and more\27', 'xt', false)
  local typed = buffer_text(buf)
  check(typed ~= expect.original, 'typing did not change the buffer')
  check(handlers.edit_is_stale(resolved.edit, buf), 'the edit should be stale')
  local answer = handlers.apply_edit(nil, { edit = resolved.edit }, { client_id = client.id })
  eq(answer.applied, false, 'workspace/applyEdit answer for a stale edit')
  eq(buffer_text(buf), typed, 'buffer after refusing the stale workspace/applyEdit')
  local warned = false
  for _, n in ipairs(notifications) do
    warned = warned or (n.msg:find('changed', 1, true) ~= nil and n.level == vim.log.levels.WARN)
  end
  check(warned, 'the writer was not told why nothing happened')
  -- The same edit, fresh, is applied.
  vim.cmd('silent undo')
  eq(buffer_text(buf), expect.original, 'buffer after undo')
  local fresh = request(client, 'codeAction/resolve',
    find(code_actions(client, buf, line_range(buf, expect.paragraph_line, expect.paragraph_line)), 'Improve'), buf)
  answer = handlers.apply_edit(nil, { edit = fresh.edit }, { client_id = client.id })
  eq(answer.applied, true, 'workspace/applyEdit answer for a fresh edit')
  eq(buffer_text(buf), expect.improved_first, 'buffer after the fresh edit')
end

-- :Rephrase style with vim.ui.select stubbed writes the style into .rephrase.toml on disk.
function cases.style_picker()
  local buf = open_document()
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = { items = items, prompt = opts.prompt, shown = vim.tbl_map(opts.format_item, items) }
    on_choice('business', 2)
  end
  local chosen
  rephrase.pick_style('writingStyle', buf, function(choice)
    chosen = choice or false
  end)
  wait('the style to be set', function()
    return chosen ~= nil
  end)
  eq(chosen, 'business', 'chosen style')
  note('offered: %s', vim.inspect(offered))
  check(vim.tbl_contains(offered.items, 'business') and vim.tbl_contains(offered.items, 'default'),
    'styles offered: %s', vim.inspect(offered.items))
  check(offered.prompt:find('en%-US') ~= nil, 'prompt names the language: %s', offered.prompt)
  local toml = project .. '/.rephrase.toml'
  wait('.rephrase.toml on disk', function()
    local text = read_file(toml)
    return text ~= nil and text:find('writingStyle%s*=%s*"business"') ~= nil
  end)
  eq(read_file(toml), 'writingStyle = "business"\n', 'the created .rephrase.toml (one line, no blank line)')
  -- The tone picker: a tone replaces the style.
  vim.ui.select = function(items, _, on_choice)
    check(vim.tbl_contains(items, 'friendly'), 'tones offered: %s', vim.inspect(items))
    on_choice('friendly', 2)
  end
  chosen = nil
  rephrase.pick_style('tone', buf, function(choice)
    chosen = choice or false
  end)
  wait('the tone to be set', function()
    local text = read_file(toml) or ''
    return chosen ~= nil and text:find('tone%s*=%s*"friendly"') ~= nil and text:find('writingStyle') == nil
  end)
  eq(read_file(toml), 'tone = "friendly"\n', '.rephrase.toml after the tone replaced the style')
  -- Dismissing the picker changes nothing.
  local before = read_file(toml)
  vim.ui.select = function(_, _, on_choice)
    on_choice(nil, nil)
  end
  chosen = nil
  rephrase.pick_style('writingStyle', buf, function(choice)
    chosen = choice or false
  end)
  wait('the dismissed picker', function()
    return chosen ~= nil
  end)
  eq(chosen, false, 'dismissed choice')
  eq(read_file(toml), before, '.rephrase.toml after a dismissed picker')
  eq(buffer_text(buf), expect.original, 'the document itself is untouched')
end

-- :Rephrase alternatives: vim.ui.select over the server's rewrites; the one chosen is applied.
function cases.alternatives()
  local buf = open_document()
  vim.api.nvim_win_set_cursor(0, { expect.paragraph_line + 1, 3 })
  -- Dismissed: nothing changes.
  local asked = 0
  vim.ui.select = function(_, _, on_choice)
    asked = asked + 1
    on_choice(nil, nil)
  end
  local status
  rephrase.alternatives({ bufnr = buf, ranges = { ['utf-16'] = line_range(buf, expect.paragraph_line,
    expect.paragraph_line) }, done = function(s)
    status = s
  end })
  wait('the dismissed picker', function()
    return status ~= nil
  end)
  eq(status, 'none', 'status after dismissing')
  eq(asked, 1, 'pickers shown')
  eq(buffer_text(buf), expect.original, 'buffer after a dismissed picker')
  -- Chosen: the business rewrite is applied.
  local offered
  vim.ui.select = function(items, opts, on_choice)
    offered = vim.tbl_map(opts.format_item, items)
    for i, item in ipairs(items) do
      -- (styles and tones that give the same rewrite share one entry: its label names each)
      if vim.startswith(item.label, 'business (writing style)') then
        return on_choice(item, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.cmd('Rephrase alternatives')
  wait('the chosen alternative', function()
    return buffer_text(buf) ~= expect.original
  end)
  note('offered: %s', vim.inspect(offered))
  check(#offered >= 2, 'several alternatives offered: %s', vim.inspect(offered))
  check(offered[1]:find('%(writing style%): ') ~= nil or offered[1]:find('%(tone%): ') ~= nil,
    'each line shows the label and the text: %s', offered[1])
  eq(buffer_text(buf), expect.alternative_business, 'buffer after choosing business')
end

-- :Rephrase language with the picker stubbed; :Rephrase usage names the offline backend.
function cases.language_and_usage()
  local buf, client = open_document()
  local info = list_styles(client, buf)
  local offered
  vim.ui.select = function(items, _, on_choice)
    offered = items
    on_choice('en-GB', 2)
  end
  local chosen
  rephrase.pick_language(buf, function(choice)
    chosen = choice or false
  end)
  wait('the language to be set', function()
    local text = read_file(project .. '/.rephrase.toml') or ''
    return chosen ~= nil and text:find('language%s*=%s*"en%-GB"') ~= nil
  end)
  eq(offered[1], 'auto (detect)', 'first language item')
  check(vim.tbl_contains(offered, 'de'), 'targets offered: %s', vim.inspect(offered))
  local line
  rephrase.usage(buf, function(l)
    line = l or false
  end)
  wait('usage', function()
    return line ~= nil
  end)
  check(type(line) == 'string' and line:find('offline') ~= nil, 'usage line: %s', tostring(line))
  local subcommands = { 'correct', 'improve', 'alternatives', 'style', 'tone', 'language', 'usage', 'restart' }
  eq(rephrase.complete('', 'Rephrase '), subcommands, 'completion')
  eq(rephrase.complete('st', 'Rephrase st'), { 'style' }, 'completion of st')
  -- Arguments complete from the server's rephrase.listStyles for this buffer.
  eq(rephrase.complete('bu', 'Rephrase improve bu'), { 'business' }, 'completion of improve bu')
  eq(rephrase.complete('', 'Rephrase improve '), vim.list_extend(vim.deepcopy(info.writingStyles), info.tones),
    'completion of improve')
  eq(rephrase.complete('fr', 'Rephrase tone fr'), { 'friendly' }, 'completion of tone fr')
  eq(rephrase.complete('d', 'Rephrase style d'), { 'default' }, 'completion of style d')
  local languages = rephrase.complete('', 'Rephrase language ')
  check(languages[1] == 'auto' and vim.tbl_contains(languages, 'de'), 'languages: %s', vim.inspect(languages))
  eq(rephrase.complete('', 'Rephrase usage x '), {}, 'nothing after the argument')
end

-- :Rephrase improve {style-or-tone} asks the server for that style; a name the language does not
-- offer is refused before anything is sent; :Rephrase tone {name} sets it without a picker.
-- :Rephrase correct: corrections only (rephrase.correct), the workspace's writing style not
-- applied; listed first among the code actions; a style or tone is refused with a message.
function cases.correct()
  vim.g.rephrase = { cmd = { server }, settings = { writingStyle = 'business' } }
  rephrase.setup({})
  local buf, client = edit_attached()
  local titles = titles_of(code_actions(client, buf, line_range(buf, expect.paragraph_line, expect.paragraph_line)))
  check(titles[1] == 'Correct', 'Correct should come first: %s', vim.inspect(titles))
  check(vim.tbl_contains(titles, 'Correct document'), 'no Correct document: %s', vim.inspect(titles))
  local before = #notifications
  vim.cmd('Rephrase correct business')
  local refusal = notifications[#notifications]
  check(#notifications > before and refusal.level == vim.log.levels.ERROR
    and refusal.msg:find('Correct takes no writing style or tone', 1, true), 'refusal: %s', vim.inspect(refusal))
  eq(buffer_text(buf), expect.original, 'buffer after :Rephrase correct business')
  vim.api.nvim_win_set_cursor(0, { expect.paragraph_line + 1, 3 })
  vim.cmd('Rephrase correct')
  wait('the correction of the paragraph', function()
    return buffer_text(buf) ~= expect.original
  end)
  eq(buffer_text(buf), expect.corrected_first, 'buffer after :Rephrase correct')
  -- The Lua API at the cursor (the paragraph under it), on the non-ASCII paragraph.
  vim.api.nvim_win_set_cursor(0, { expect.unicode_line + 1, 3 })
  local status
  rephrase.correct({ bufnr = buf, done = function(s)
    status = s
  end })
  wait('Correct at the cursor', function()
    return status ~= nil
  end)
  eq(status, 'applied', 'status of Correct on the non-ASCII paragraph')
  eq(buffer_text(buf), expect.improved_both, 'buffer after both corrections')
end

-- AsciiDoc and Org: the plugin's filetypes start the client for them, and :Rephrase improve over
-- the whole buffer changes the prose only (the server reads the format by the language id).
function cases.formats()
  vim.g.rephrase = { cmd = { server }, settings = {} }
  rephrase.setup({})
  for _, doc in ipairs(expect.formats) do
    local path = project .. '/' .. doc.name
    local f = assert(io.open(path, 'w'))
    f:write(doc.text)
    f:close()
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local buf = vim.api.nvim_get_current_buf()
    eq(vim.bo[buf].filetype, doc.filetype, 'filetype of ' .. doc.name)
    wait('the server to attach to ' .. doc.name, function()
      local client = rephrase.get_client(buf)
      return client ~= nil and client.initialized == true
    end)
    eq(buffer_text(buf), doc.text, 'buffer before')
    vim.cmd('%Rephrase improve')
    wait('the improvement of ' .. doc.name, function()
      return buffer_text(buf) ~= doc.text
    end)
    eq(buffer_text(buf), doc.improved, 'buffer after :%Rephrase improve in ' .. doc.name)
  end
end

function cases.improve_with_style()
  local buf = open_document()
  local statuses = {}
  local function improve(style)
    local status
    rephrase.improve({ bufnr = buf, style = style,
      range = line_range(buf, expect.paragraph_line, expect.paragraph_line), done = function(s)
        status = s
      end })
    wait('Improve with ' .. style, function()
      return status ~= nil
    end)
    statuses[style] = status
    return status
  end
  eq(improve('business'), 'applied', 'status of Improve: business')
  check(buffer_text(buf) ~= expect.original, 'the business style changed nothing')
  vim.cmd('silent undo')
  eq(improve('prefer_friendly'), 'applied', 'status of Improve: prefer_friendly')
  vim.cmd('silent undo')
  eq(buffer_text(buf), expect.original, 'buffer after undo')
  local before = #notifications
  eq(improve('shouting'), 'none', 'status of an unknown style')
  local warning = notifications[#notifications]
  check(#notifications > before and warning.level == vim.log.levels.WARN
    and warning.msg:find('"shouting" is not a writing style or tone for en%-US'), 'warning: %s', vim.inspect(warning))
  eq(buffer_text(buf), expect.original, 'buffer after an unknown style')
  vim.cmd('Rephrase tone diplomatic')
  wait('.rephrase.toml with the tone', function()
    return (read_file(project .. '/.rephrase.toml') or ''):find('tone%s*=%s*"diplomatic"') ~= nil
  end)
  note('statuses: %s', vim.inspect(statuses))
end

-- :Rephrase restart gives a new, working server.
function cases.restart()
  local buf, client = open_document()
  local old_id = client.id
  vim.cmd('Rephrase restart')
  wait('a new client', function()
    local c = rephrase.get_client(buf)
    return c ~= nil and c.id ~= old_id and c.initialized == true
  end)
  local status
  rephrase.improve({
    bufnr = buf,
    range = line_range(buf, expect.paragraph_line, expect.paragraph_line),
    done = function(s)
      status = s
    end,
  })
  wait('Improve after restart', function()
    return status ~= nil
  end)
  eq(status, 'applied', 'status after restart')
  eq(buffer_text(buf), expect.improved_first, 'buffer after restart and Improve')
end

-- :checkhealth rephrase reports the server, its version, the key and the backend.
function cases.health()
  local buf = open_document()
  check(buf ~= nil, 'no buffer')
  vim.cmd('checkhealth rephrase')
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  note('health report:\n%s', report)
  check(report:find('rephrase-ls ' .. expect.version, 1, true) ~= nil, 'version missing from the report')
  check(report:find('REPHRASE_API_KEY', 1, true) ~= nil, 'key variable missing from the report')
  check(report:find('offline', 1, true) ~= nil, 'backend missing from the report')
  check(report:find('backend: offline (embedded) (no API key', 1, true) ~= nil, 'which backend is used')
  check(report:find('ERROR', 1, true) == nil, 'the report has errors')
end

-- Ranges from the cursor, a charwise selection and whole lines, in each position encoding.
function cases.ranges()
  local buf = open_document()
  local line = expect.unicode_line + 1
  local text = vim.api.nvim_buf_get_lines(buf, line - 1, line, false)[1]
  local cafe = text:find('café', 1, true) - 1 -- byte column of "c"
  local emoji = text:find('🎉', 1, true) - 1
  eq(compat.lsp_col(text, emoji, 'utf-8'), emoji, 'utf-8 column')
  eq(compat.lsp_col(text, emoji, 'utf-16'), emoji - 1, 'utf-16 column (é is 2 bytes, 1 unit)')
  eq(compat.lsp_col(text, emoji + 4, 'utf-16'), emoji + 1, 'utf-16 column after the emoji (2 units)')
  eq(compat.lsp_col(text, emoji + 4, 'utf-32'), emoji, 'utf-32 column after the emoji')
  -- Charwise visual selection of "café was nice 🎉": the end includes the whole emoji.
  vim.api.nvim_win_set_cursor(0, { line, cafe })
  local chars = vim.fn.strchars('café was nice 🎉') - 1
  vim.cmd('normal! v' .. chars .. 'l\27')
  local r = rephrase.command_range(buf, 2, line, line, 'utf-16')
  eq(r, { start = { line = line - 1, character = cafe }, ['end'] = { line = line - 1, character = emoji + 1 } },
    'charwise range')
  -- Whole lines (a :range that is not the visual selection).
  r = rephrase.command_range(buf, 2, 1, line, 'utf-8')
  eq(r, { start = { line = 0, character = 0 }, ['end'] = { line = line - 1, character = #text } }, 'line range')
  -- No range: the cursor.
  vim.api.nvim_win_set_cursor(0, { line, emoji })
  r = rephrase.command_range(buf, 0, line, line, 'utf-32')
  eq(r.start, r['end'], 'cursor range is empty')
  eq(r.start.character, emoji - 1, 'cursor column in utf-32')
end

-- Typst and HTML buffers: the plugin starts the server for their filetypes, and Improve document
-- fixes the prose and keeps the markup (a Neovim that does not know `.typ` gets the filetype set).
function cases.typst_and_html()
  vim.g.rephrase = { cmd = { server }, settings = {} }
  rephrase.setup({})
  local documents = {
    { 'notes.typ', 'typst', { '= Notes', '', 'I recieved the letter and read it twice.', '',
      '#let x = "untill"' }, 'I received the letter' },
    { 'page.html', 'html', { '<p>I recieved the letter and read it twice.</p>', '<pre>untill</pre>' },
      '<p>I received the letter' },
  }
  for _, doc in ipairs(documents) do
    local name, filetype, lines, fixed = doc[1], doc[2], doc[3], doc[4]
    vim.fn.writefile(lines, project .. '/' .. name)
    vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/' .. name))
    local buf = vim.api.nvim_get_current_buf()
    if vim.bo[buf].filetype ~= filetype then
      vim.bo[buf].filetype = filetype
    end
    wait('the server to attach to ' .. name, function()
      local client = rephrase.get_client(buf)
      return client ~= nil and client.initialized == true
    end)
    local original = buffer_text(buf)
    vim.ui.select = function(items, _, on_choice)
      for i, item in ipairs(items) do
        local candidate = item.action or item[2]
        if type(candidate) == 'table' and candidate.title == 'Improve document' then
          return on_choice(item, i)
        end
      end
      on_choice(nil, nil)
    end
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    vim.lsp.buf.code_action()
    wait('Improve document in ' .. name, function()
      return buffer_text(buf) ~= original
    end)
    local expected = vim.deepcopy(lines)
    for i, line in ipairs(expected) do
      expected[i] = line:gsub('I recieved', 'I received')
    end
    eq(buffer_text(buf), table.concat(expected, '\n') .. '\n', 'buffer after Improve document')
    check(buffer_text(buf):find(fixed, 1, true) ~= nil, 'prose fixed in %s', name)
  end
end

-- lsp/rephrase.lua (0.11+) is a static table; setup() on a Neovim with vim.lsp.config/enable
-- (simulated here, on Neovim 0.7 to 0.10; lsp_enable is the real thing on 0.11) registers it
-- with the options laid over it.
function cases.lsp_config()
  vim.g.rephrase = { cmd = { server }, settings = { language = 'de' } }
  local cfg = dofile(plugin .. '/lsp/rephrase.lua')
  eq(cfg.cmd, { 'rephrase-ls' }, 'cmd of the static table (vim.g.rephrase is not read there)')
  check(vim.tbl_contains(cfg.filetypes, 'markdown') and vim.tbl_contains(cfg.filetypes, 'gitcommit'), 'filetypes')
  eq(cfg.root_markers, { '.rephrase.toml', '.git' }, 'root markers')
  eq(cfg.settings, { rephrase = {} }, 'settings')
  eq(cfg.capabilities.workspace.workspaceEdit.documentChanges, true, 'documentChanges capability')
  eq(cfg.capabilities.workspace.configuration, true, 'workspace/configuration capability')
  for _, method in ipairs({ 'workspace/applyEdit', 'workspace/configuration', 'window/showMessage' }) do
    check(type(cfg.handlers[method]) == 'function', 'no handler for %s', method)
  end
  local registered, enabled = {}, {}
  vim.lsp.config = setmetatable({}, {
    __call = function(_, name, c)
      registered[name] = vim.tbl_deep_extend('force', registered[name] or {}, c)
    end,
    __newindex = function(_, name, c)
      registered[name] = c
    end,
  })
  vim.lsp.enable = function(name)
    table.insert(enabled, name)
  end
  local config_stub, enable_stub = vim.lsp.config, vim.lsp.enable
  local ok, err = pcall(rephrase.setup, { settings = { tone = 'friendly' } })
  vim.lsp.config, vim.lsp.enable = nil, nil
  check(ok, 'setup failed: %s', tostring(err))
  eq(enabled, { 'rephrase' }, 'enabled servers')
  eq(registered.rephrase.cmd, { server }, 'cmd from vim.g.rephrase')
  eq(registered.rephrase.settings, { rephrase = { language = 'de', tone = 'friendly' } }, 'merged settings')
  local params = {}
  registered.rephrase.before_init(params, registered.rephrase)
  eq(params.initializationOptions, registered.rephrase.settings, 'settings as initializationOptions')
  eq(registered.rephrase.capabilities.workspace.configuration, true, 'workspace/configuration capability')
  check(registered.rephrase.capabilities.textDocument ~= nil, "Neovim's own capabilities kept")
  -- setup{} again replaces the configuration: a setting it leaves out is gone.
  vim.g.rephrase = { cmd = { server } }
  vim.lsp.config, vim.lsp.enable = config_stub, enable_stub
  ok, err = pcall(rephrase.setup, {})
  vim.lsp.config, vim.lsp.enable = nil, nil
  check(ok, 'setup failed: %s', tostring(err))
  eq(registered.rephrase.settings, { rephrase = vim.empty_dict() }, 'settings after setup{} without them')
  -- Bad configuration is a clear error.
  vim.g.rephrase = { cmd = 'rephrase-ls' }
  ok, err = pcall(rephrase.config)
  check(not ok and tostring(err):find('cmd', 1, true), 'a string cmd should be refused: %s', tostring(err))
  vim.g.rephrase = { cmd = { '/nonexistent/rephrase-ls' } }
  local missing = rephrase.lsp_config()
  check(type(missing.cmd) == 'function', 'a missing server gives a cmd that explains')
  ok, err = pcall(missing.cmd)
  check(not ok and tostring(err):find('pipx install rephrase-ls', 1, true), 'message: %s', tostring(err))
  vim.g.rephrase = nil
end

-- Neovim 0.11: vim.lsp.enable('rephrase') alone (no setup{}) reads lsp/rephrase.lua, with the
-- options of vim.g.rephrase laid over it when the plugin loads; vim.lsp.config('rephrase', ...)
-- overrides them.
function cases.lsp_enable()
  check(vim.fn.has('nvim-0.11') == 1, 'this case is for Neovim 0.11+')
  -- As in an init.lua: vim.g.rephrase is set before the plugin loads.
  vim.g.rephrase = { cmd = { server }, settings = { language = 'en-GB' } }
  vim.g.loaded_rephrase = nil
  vim.cmd('runtime plugin/rephrase.lua')
  vim.lsp.enable('rephrase')
  local buf, client = edit_attached()
  check(client.config.root_dir == project, 'root_dir %s', tostring(client.config.root_dir))
  check_server_uses_en_gb(buf, client, 'vim.lsp.enable')
  -- An override through vim.lsp.config holds after :Rephrase restart.
  vim.lsp.config('rephrase', { settings = { rephrase = { language = 'de' } } })
  vim.cmd('Rephrase restart')
  wait('a new client', function()
    local c = rephrase.get_client(buf)
    return c ~= nil and c.id ~= client.id and c.initialized == true
  end)
  local info = list_styles(rephrase.get_client(buf), buf)
  eq({ info.language, info.languageSource }, { 'de', 'settings' }, 'the language after vim.lsp.config')
end

-- The help file has valid, unique tags and :help finds them.
function cases.help()
  local doc = project .. '/doc'
  vim.fn.mkdir(doc, 'p')
  vim.fn.writefile(vim.fn.readfile(plugin .. '/doc/rephrase.txt'), doc .. '/rephrase.txt')
  vim.cmd('helptags ' .. vim.fn.fnameescape(doc)) -- raises on duplicate tags
  vim.opt.runtimepath:prepend(project)
  for _, tag in ipairs({ 'rephrase.txt', ':Rephrase', 'g:rephrase', 'rephrase-configuration', 'rephrase-health' }) do
    vim.cmd('help ' .. tag)
    check(vim.bo.filetype == 'help', 'no help for %s', tag)
    vim.cmd('helpclose')
  end
end

-- :checkhealth with no buffer attached starts a short-lived server to reach the backend.
function cases.health_without_buffer()
  vim.g.rephrase = { cmd = { server } }
  vim.cmd('checkhealth rephrase')
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  note('health report:\n%s', report)
  check(report:find('starting one to ask the backend', 1, true) ~= nil, 'no short-lived server')
  check(report:find('backend reachable', 1, true) ~= nil, 'backend not reached')
  check(report:find('ERROR', 1, true) == nil, 'the report has errors')
  if vim.fn.has('nvim-0.11') == 1 then
    -- rephrase-ls is not on PATH here: lsp/rephrase.lua's cmd would not start.
    check(report:find('vim.lsp.enable("rephrase") alone would run "rephrase-ls"', 1, true) ~= nil,
      'no warning about the cmd of lsp/rephrase.lua')
  end
  -- A missing server is an error that says how to install it.
  vim.g.rephrase = { cmd = { '/nonexistent/rephrase-ls' } }
  vim.cmd('checkhealth rephrase')
  report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  note('health report without a server:\n%s', report)
  check(report:find('ERROR', 1, true) ~= nil and report:find('pipx install rephrase-ls', 1, true) ~= nil,
    'a missing server should be an error with the install hint')
end

--- The words under the buffer's rephrase diagnostics, each with its code: { word = code }.
local function findings(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == 'rephrase' and d.lnum == (d.end_lnum or d.lnum) then
      local line = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1] or ''
      out[line:sub(d.col + 1, d.end_col)] = d.code
    end
  end
  return out
end

local function wait_findings(buf, expected, what)
  local ok = vim.wait(WAIT_MS, function()
    return vim.deep_equal(findings(buf), expected)
  end, 20)
  check(ok, '%s: expected %s, shown %s', what, vim.inspect(expected), vim.inspect(findings(buf)))
end

--- The cursor on `word` (its first line in the buffer), 1-based line as Neovim counts.
local function cursor_on(buf, word)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = line:find(word, 1, true)
    if col then
      vim.api.nvim_win_set_cursor(0, { i, col })
      return i
    end
  end
  error('no ' .. word .. ' in the buffer')
end

--- Chooses `title` in Neovim's own code action menu at the cursor; returns the titles offered.
local function choose_code_action(title)
  local offered, chosen
  local select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    offered = vim.tbl_map(opts.format_item, items)
    for i, item in ipairs(items) do
      local candidate = item.action or item[2] -- 0.10+: {action, ctx}; 0.7 to 0.9: {client_id, action}
      if type(candidate) == 'table' and candidate.title == title then
        chosen = true
        return on_choice(item, i)
      end
    end
    on_choice(nil, nil)
  end
  vim.lsp.buf.code_action()
  wait('the code action menu', function()
    return offered ~= nil
  end)
  vim.ui.select = select
  check(chosen, 'no %s among %s', title, vim.inspect(offered))
  return offered
end

--- The text of the floating window vim.lsp.buf.hover() opens at the cursor.
local function hover_text()
  local function floating()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        return win
      end
    end
  end
  vim.lsp.buf.hover()
  wait('the hover window', function()
    return floating() ~= nil
  end)
  local win = floating()
  local text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
  vim.api.nvim_win_close(win, true)
  return text
end

--- The loaded buffer of `path` (nil: none), without making one.
local function project_buffer(path)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == path and vim.api.nvim_buf_is_loaded(b) then
      return b
    end
  end
  return nil
end

local function open_file(name, lines)
  vim.fn.writefile(lines, project .. '/' .. name)
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/' .. name))
  local buf = vim.api.nvim_get_current_buf()
  wait('the server to attach to ' .. name, function()
    local client = rephrase.get_client(buf)
    return client ~= nil and client.initialized == true
  end)
  return buf
end

--- The buffer's rephrase diagnostic whose message is `message`, once shown.
local function wait_diagnostic(buf, message)
  local found
  wait('a rephrase diagnostic "' .. message .. '"', function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.source == 'rephrase' and d.message == message then
        found = d
        return true
      end
    end
    return false
  end)
  return found
end

-- Review mode: the offline engine's finding on "teh" is a rephrase diagnostic in
-- vim.diagnostic (pushed to 0.7, pulled by 0.10 and later); its quick fix "Replace with ‘the’",
-- chosen in Neovim's own code action menu, changes that word only.
function cases.diagnostic_quick_fix()
  local buf = open_document()
  local found = wait_diagnostic(buf, 'teh → the')
  note('diagnostics: %s', vim.inspect(vim.tbl_map(function(d)
    return d.message
  end, vim.diagnostic.get(buf))))
  eq(found.lnum, expect.paragraph_line, 'line of the diagnostic')
  eq(found.severity, vim.diagnostic.severity.INFO, 'severity')
  local line = vim.api.nvim_buf_get_lines(buf, found.lnum, found.lnum + 1, false)[1]
  eq(line:sub(found.col + 1, found.end_col), 'teh', 'the words under the diagnostic')
  vim.api.nvim_win_set_cursor(0, { found.lnum + 1, found.col })
  local offered = choose_code_action('Replace with ‘the’')
  wait('the quick fix', function()
    return buffer_text(buf) ~= expect.original
  end)
  note('menu: %s', vim.inspect(offered))
  eq(buffer_text(buf), expect.fixed_teh, 'buffer after the quick fix')
  wait('the diagnostic on "teh" to go', function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.message == 'teh → the' then
        return false
      end
    end
    return true
  end)
end

-- The quick fix "Turn off ‘spelling’ in this project" writes disabledRules into the project
-- file through the editor (a workspace edit that creates .rephrase.toml), and the setting
-- takes every spelling diagnostic away (the document's only finding is one).
function cases.turn_off_rule()
  local buf = open_document()
  local found = wait_diagnostic(buf, 'teh → the')
  vim.api.nvim_win_set_cursor(0, { found.lnum + 1, found.col })
  local offered = choose_code_action('Turn off ‘spelling’ in this project')
  local toml = project .. '/.rephrase.toml'
  note('menu: %s', vim.inspect(offered))
  -- The plugin writes the file the edit created, and leaves no buffer of it behind.
  wait('the project file on disk', function()
    return vim.fn.filereadable(toml) == 1 and table.concat(vim.fn.readfile(toml), '\n'):find('spelling') ~= nil
  end)
  eq(table.concat(vim.fn.readfile(toml), '\n'), 'disabledRules = ["spelling"]', 'the project file')
  eq(project_buffer(toml), nil, 'a buffer of the project file after the quick fix')
  -- No edit: the server asks Neovim 0.10+ to pull again (workspace/diagnostic/refresh, which
  -- the plugin answers), and pushes to 0.7.
  wait('the spelling diagnostic to go', function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'spelling' then
        return false
      end
    end
    return true
  end)
end

-- "Add ‘word’ to the project's words" in Neovim's own menu: each quick fix listed once though
-- Neovim sends every diagnostic of the line; the word reaches the disk at once (no buffer of the
-- project file left behind) and the menu elsewhere stays complete; a project file shown in a
-- window is edited and left for the writer to write; one with unsaved changes is not edited.
function cases.project_words()
  local toml = project .. '/.rephrase.toml'
  vim.fn.writefile({ '# the project' }, toml)
  vim.g.rephrase = { cmd = { server }, settings = {} }
  rephrase.setup({})
  local buf = open_file('words.md', { '# Words', '', 'I recieved teh letter and it was was short.', '',
    'We really need to organize the colors of this page quickly.', '', 'Thier reply came late.' })
  local client = rephrase.get_client(buf)
  wait_diagnostic(buf, 'recieved → received')
  wait_diagnostic(buf, 'teh → the')
  local other = line_range(buf, 4, 4)
  wait('the style actions', function()
    return vim.tbl_contains(titles_of(code_actions(client, buf, other)), 'Improve: business')
  end)
  local before = titles_of(code_actions(client, buf, other))

  cursor_on(buf, 'recieved')
  local offered = choose_code_action('Add ‘recieved’ to the project\'s words')
  note('menu on the line: %s', vim.inspect(offered))
  local count = {}
  for _, item in ipairs(offered) do
    count[item] = (count[item] or 0) + 1
    check(count[item] == 1, 'listed twice: %s in %s', item, vim.inspect(offered))
  end
  -- Right after, the menu on another paragraph still has every action.
  eq(titles_of(code_actions(client, buf, other)), before, 'the menu on another paragraph right after')
  wait('the word on disk', function()
    return (read_file(toml) or ''):find('recieved') ~= nil
  end)
  eq(read_file(toml), '# the project\nwords = ["recieved"]\n', 'the project file on disk')
  eq(project_buffer(toml), nil, 'a buffer of the project file after the quick fix')
  wait('the diagnostic on recieved to go', function()
    return findings(buf).recieved == nil
  end)

  -- Shown in a window: edited there, not written.
  local win = vim.api.nvim_get_current_win()
  vim.cmd('split ' .. vim.fn.fnameescape(toml))
  local shown, shown_win = vim.api.nvim_get_current_buf(), vim.api.nvim_get_current_win()
  vim.api.nvim_set_current_win(win)
  cursor_on(buf, 'teh')
  choose_code_action('Add ‘teh’ to the project\'s words')
  wait('the word in the shown project file', function()
    return table.concat(vim.api.nvim_buf_get_lines(shown, 0, -1, false), '\n'):find('teh') ~= nil
  end)
  check(vim.bo[shown].modified, 'the shown project file should be left modified')
  eq(read_file(toml), '# the project\nwords = ["recieved"]\n', 'the project file on disk (shown, not written)')
  vim.api.nvim_buf_call(shown, function()
    vim.cmd('silent write')
  end)

  -- Hidden, with unsaved changes: not edited, and the writer is told.
  vim.api.nvim_win_close(shown_win, false)
  vim.api.nvim_buf_set_lines(shown, 0, 0, false, { '# unsaved' })
  local lines = vim.api.nvim_buf_get_lines(shown, 0, -1, false)
  cursor_on(buf, 'Thier')
  choose_code_action('Add ‘Thier’ to the project\'s words')
  wait('the refusal', function()
    return said('unsaved changes') ~= nil
  end)
  eq(vim.api.nvim_buf_get_lines(shown, 0, -1, false), lines, 'the modified project file buffer')
  eq(read_file(toml), '# the project\nwords = ["recieved", "teh"]\n', 'the project file on disk at the end')
end

-- Review controls, one session (settings given to setup{} where a case asks for them):
-- `disabledRules` and `exclude` from .rephrase.toml, the in-document switches, hover, an
-- unknown word's suggestion fix and "Add ‘word’ to my words".
local CONTROLS = {
  '# Controls',
  '',
  'I recieved the wurd from the team, and it was was clear to everyone.',
  '',
  'We read teh report before the meeting on Friday.',
  '',
  '<!-- rephrase: ignore-next-line -->',
  'Thier reply came late, and it said nothing of the plans we made.',
  '',
  '<!-- rephrase: off -->',
  'So the end came untill now, I beleive.',
  '<!-- rephrase: on -->',
  '',
  'The notes are definately ready for the team.',
}

function cases.review_controls()
  vim.fn.writefile({ 'disabledRules = ["doubled-word"]', 'exclude = ["vendor/**"]' }, project .. '/.rephrase.toml')
  vim.g.rephrase = { cmd = { server }, settings = {} }
  rephrase.setup({})
  -- An excluded file gets no diagnostics (checked once the next file, the same text, has them).
  vim.fn.mkdir(project .. '/vendor', 'p')
  local excluded = open_file('vendor/notes.md', CONTROLS)
  local buf = open_file('controls.md', CONTROLS)
  -- "was was" is a kind turned off, "Thier" on an ignored line, "untill" in a region switched off.
  wait_findings(buf, { recieved = 'spelling', wurd = 'unknown-word', teh = 'spelling', definately = 'spelling' },
    'findings')
  vim.wait(1000)
  eq(findings(excluded), {}, 'findings in the excluded vendor/notes.md')
  local hint
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == 'unknown-word' then
      hint = d
    end
  end
  eq(hint.severity, vim.diagnostic.severity.HINT, 'severity of unknown-word')
  eq(hint.message, 'wurd: unknown word (word, ward, turd?)', 'message of unknown-word')

  -- Hover on a finding says what it is and how to turn it off.
  cursor_on(buf, 'recieved')
  local hover = hover_text()
  note('hover: %s', hover)
  for _, part in ipairs({ 'rephrase: spelling', '<!-- rephrase: ignore-next-line -->',
    'disabledRules = ["spelling"]', 'Add ‘recieved’ to my words' }) do
    check(hover:find(part, 1, true) ~= nil, 'the hover lacks %s: %s', part, hover)
  end

  -- The unknown word's first suggestion, from the code action menu.
  local line = cursor_on(buf, 'wurd')
  local offered = choose_code_action('Replace with ‘word’')
  note('menu on wurd: %s', vim.inspect(offered))
  wait('the suggestion applied', function()
    return vim.api.nvim_buf_get_lines(buf, line - 1, line, false)[1]:find('the word from', 1, true) ~= nil
  end)
  eq(vim.api.nvim_buf_get_lines(buf, line - 1, line, false)[1],
    'I recieved the word from the team, and it was was clear to everyone.', 'the line after the suggestion')
  wait_findings(buf, { recieved = 'spelling', teh = 'spelling', definately = 'spelling' },
    'findings after the suggestion')

  -- "Add ‘teh’ to my words": the server appends it to words.txt in the user config folder.
  cursor_on(buf, 'teh')
  choose_code_action('Add ‘teh’ to my words')
  local words = os.getenv('XDG_CONFIG_HOME') .. '/rephrase-ls/words.txt'
  wait('words.txt', function()
    return (read_file(words) or ''):find('teh') ~= nil
  end)
  eq(read_file(words), 'teh\n', 'words.txt')
  wait_findings(buf, { recieved = 'spelling', definately = 'spelling' }, 'findings after adding teh')

  -- "Ignore this paragraph" writes the switches around it, in Markdown's comment syntax.
  line = cursor_on(buf, 'recieved')
  choose_code_action('Ignore this paragraph')
  wait('the switches around the paragraph', function()
    return vim.api.nvim_buf_get_lines(buf, line - 1, line, false)[1] == '<!-- rephrase: off -->'
  end)
  eq(vim.api.nvim_buf_get_lines(buf, line - 1, line + 2, false), { '<!-- rephrase: off -->',
    'I recieved the word from the team, and it was was clear to everyone.', '<!-- rephrase: on -->' },
    'the paragraph between the switches')
  wait_findings(buf, { definately = 'spelling' }, 'findings after Ignore this paragraph')

  -- "Add ‘definately’ to the project's words": an edit of .rephrase.toml through the editor,
  -- which the plugin writes at once (the file is in no window and had no unsaved change).
  cursor_on(buf, 'definately')
  choose_code_action('Add ‘definately’ to the project\'s words')
  local toml = project .. '/.rephrase.toml'
  wait('the word in the project file on disk', function()
    return (read_file(toml) or ''):find('definately') ~= nil
  end)
  eq(vim.fn.readfile(toml), { 'disabledRules = ["doubled-word"]', 'exclude = ["vendor/**"]',
    'words = ["definately"]' }, 'the project file')
  eq(project_buffer(toml), nil, 'a buffer of the project file after the quick fix')
  wait_findings(buf, {}, 'findings after adding definately to the project')
  eq(findings(excluded), {}, 'findings in the excluded vendor/notes.md at the end')
end

-- diagnosticsOn = "save": reviewed when opened and saved, not while typing; then "open".
function cases.diagnostics_on_save()
  vim.g.rephrase = { cmd = { server }, settings = {} }
  rephrase.setup({ settings = { diagnosticsOn = 'save' } })
  local buf = open_file('saved.md', { 'I recieved the letter yesterday, and I read it twice before dinner.' })
  wait_findings(buf, { recieved = 'spelling' }, 'findings when opened')
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '', 'We went there untill the evening and talked about the plans.' })
  -- Long past the 300 ms pause: a review on typing would have shown "untill".
  vim.wait(1500)
  eq(findings(buf).untill, nil, 'a finding on "untill" before the save')
  vim.cmd('silent write')
  wait_findings(buf, { recieved = 'spelling', untill = 'spelling' }, 'findings after :write')
  -- diagnosticsOn = "open": not even a save reviews again.
  rephrase.setup({ settings = { diagnosticsOn = 'open' } })
  vim.wait(1000)
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '', 'It was teh end of the day.' })
  vim.cmd('silent write')
  vim.wait(1500)
  eq(findings(buf).teh, nil, 'a finding on "teh" with diagnosticsOn = "open"')
  eq(findings(buf), { recieved = 'spelling', untill = 'spelling' }, 'findings with diagnosticsOn = "open"')
end

-- Settings from the files a writer keeps them in, as the server started by Neovim reads them:
-- the user config file (per-language words and disabledRules), words.txt beside it, and the
-- project's enabledRules and wordFiles; editor settings from setup{} (unknownWordSeverity, and
-- disabledRules for German, checked on a document the `rephrase: language=de` switch makes German).
function cases.settings_from_files()
  local user = os.getenv('XDG_CONFIG_HOME') .. '/rephrase-ls'
  vim.fn.mkdir(user, 'p')
  vim.fn.writefile({ 'words = { en = ["Thier"] }', 'disabledRules = { en = ["doubled-word"] }' },
    user .. '/config.toml')
  vim.fn.writefile({ 'recieved' }, user .. '/words.txt')
  vim.fn.mkdir(project .. '/docs', 'p')
  vim.fn.writefile({ '# ours', 'wurd' }, project .. '/docs/words.txt')
  vim.fn.writefile({ 'enabledRules = ["spacing"]', 'wordFiles = ["docs/words.txt"]' }, project .. '/.rephrase.toml')
  vim.g.rephrase = { cmd = { server }, settings = {} }
  rephrase.setup({ settings = { unknownWordSeverity = 'warning', disabledRules = { de = { 'capitalisation' } } } })
  local buf = open_file('settings.md', {
    'I recieved teh letter, and the wurd came  late.',
    '',
    'Thier reply was was short, and the zorb was clear to everyone.',
  })
  -- Listed words and the kind turned off give nothing; two spaces (off by default in Markdown)
  -- are flagged; an unknown word is a warning.
  wait_findings(buf, { teh = 'spelling', ['came  late.'] = 'spacing', zorb = 'unknown-word' }, 'findings')
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == 'unknown-word' then
      eq(d.severity, vim.diagnostic.severity.WARN, 'severity of unknown-word from unknownWordSeverity')
    end
  end
  -- A German document that says so (the in-document language switch): German findings, less
  -- the lower-case sentence start the editor settings turn off for German only.
  local german = open_file('german.md', {
    '<!-- rephrase: language=de -->',
    '',
    'Wir haben vieleicht das Haus gesehen. wir waren zu spät für die Führung.',
  })
  wait_findings(german, { vieleicht = 'spelling' }, 'findings in the German document')
end

-- Neovim 0.11 without the plugin: a configuration of one's own, with the capability and the
-- handler docs/editors.md gives (read from there), shows a save at once, without an edit.
function cases.plain_config()
  local doc = read_file(plugin .. '/../../docs/editors.md')
  local after = doc:match('%*%*Without the plugin%*%*(.*)')
  local fragment = after and after:match('```lua\n(.-)\n%s*```')
  check(fragment ~= nil, 'no Lua block after "Without the plugin" in docs/editors.md')
  local extra = assert(load('return {\n' .. fragment .. '\n}'))()
  vim.lsp.config('plain', vim.tbl_extend('force', {
    cmd = { server },
    filetypes = { 'markdown' },
    root_markers = { '.git' },
    settings = { rephrase = { diagnosticsOn = 'save' } },
  }, extra))
  vim.lsp.enable('plain')
  vim.fn.writefile({ 'I recieved the letter yesterday, and I read it twice before dinner.' }, project .. '/plain.md')
  vim.cmd('edit ' .. vim.fn.fnameescape(project .. '/plain.md'))
  local buf = vim.api.nvim_get_current_buf()
  wait_findings(buf, { recieved = 'spelling' }, 'findings when opened')
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '', 'We went there untill the evening and talked about the plans.' })
  vim.wait(1500)
  eq(findings(buf).untill, nil, 'a finding on "untill" before the save')
  vim.cmd('silent write')
  wait_findings(buf, { recieved = 'spelling', untill = 'spelling' }, 'findings after :write')
end

local name = os.getenv('REPHRASE_TEST_CASE')
local case = cases[name or '']
if not case then
  finish(false, 'unknown case ' .. tostring(name))
else
  local ok, err = xpcall(case, debug.traceback)
  finish(ok, (not ok) and tostring(err) or nil)
end
