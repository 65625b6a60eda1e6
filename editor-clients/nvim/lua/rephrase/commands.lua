-- What the writer runs: correct and improve (the server's `rephrase.correct`, `rephrase.improve`),
-- the style, tone and language pickers, usage, and :Rephrase with its completions (from the
-- server's `rephrase.listStyles`).

local client = require('rephrase.client')
local compat = require('rephrase.compat')
local config = require('rephrase.config')
local notify = require('rephrase.notify')
local value = require('rephrase.handlers').value

local M = {}

---@alias rephrase.Range { start: lsp.Position, ['end']: lsp.Position }

---@param bufnr integer
---@param row integer
---@return string
local function get_line(bufnr, row)
  return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1] or ''
end

--- The LSP range for a command: a visual selection, whole lines, or the cursor.
---@param bufnr integer
---@param range integer? how many range items the command got (0, 1, 2)
---@param line1 integer? first line (1-based)
---@param line2 integer? last line (1-based)
---@param encoding string? the position encoding; utf-16 by default
---@return rephrase.Range
function M.command_range(bufnr, range, line1, line2, encoding)
  encoding = encoding or 'utf-16'
  local col = function(line, byte_col)
    return compat.lsp_col(line, byte_col, encoding)
  end
  if range == nil or range == 0 then
    local cursor = vim.api.nvim_win_get_cursor(0)
    local row = cursor[1] - 1
    local pos = { line = row, character = col(get_line(bufnr, row), cursor[2]) }
    return { start = pos, ['end'] = pos }
  end
  local vstart = vim.api.nvim_buf_get_mark(bufnr, '<')
  local vend = vim.api.nvim_buf_get_mark(bufnr, '>')
  if vim.fn.visualmode() == 'v' and vstart[1] == line1 and vend[1] == line2 then
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

--- The range in each position encoding (the server's is known only once it is ready).
---@return table<string, rephrase.Range>
local function ranges_now(bufnr, range, line1, line2)
  local out = {}
  for _, encoding in ipairs({ 'utf-8', 'utf-16', 'utf-32' }) do
    out[encoding] = M.command_range(bufnr, range, line1, line2, encoding)
  end
  return out
end

--- Runs `fn(info)` with the result of rephrase.listStyles for `bufnr`; `done(nil)` when there is
--- none (no server, an error, a malformed answer: the writer is told).
---@param bufnr integer
---@param fn fun(info: table)
---@param done fun(choice: string?)
local function with_styles(bufnr, fn, done)
  client.exec(bufnr, 'rephrase.listStyles', { vim.uri_from_bufnr(bufnr) }, function(info)
    info = value(info)
    if type(info) ~= 'table' then
      notify.error('unexpected answer from the server: ' .. vim.inspect(info))
      return done(nil)
    end
    fn(info)
  end, function()
    done(nil)
  end)
end

--- `rephrase.improve`'s options for a style or tone name the document's language offers.
---@param name string a writing style or tone, or its `prefer_` form
---@param info table the result of rephrase.listStyles
---@return table? options
---@return string? err
function M.style_options(name, info)
  local base = name:gsub('^prefer_', '')
  if vim.tbl_contains(value(info.writingStyles) or {}, base) then
    return { writingStyle = name }
  end
  if vim.tbl_contains(value(info.tones) or {}, base) then
    return { tone = name }
  end
  local language = value(info.language) or 'this document'
  if not value(info.supported) then
    return nil, value(info.reason) or (language .. ' has no writing styles or tones')
  end
  return nil, ('"%s" is not a writing style or tone for %s; writing styles: %s; tones: %s'):format(name, language,
    table.concat(value(info.writingStyles) or {}, ', '), table.concat(value(info.tones) or {}, ', '))
end

---@class rephrase.ImproveOpts
---@field bufnr integer?
---@field range rephrase.Range? an LSP range; default: the cursor (the paragraph under it)
---@field ranges table<string, rephrase.Range>? the range in each position encoding
---@field style string? a writing style or tone (the plain Improve without)
---@field correct boolean? corrections only (`rephrase.correct`), never with a style
---@field done fun(status: 'applied'|'none'|'error', result: table?)?

--- Improves `opts.range` through the server's `rephrase.improve` (`rephrase.correct` with
--- `opts.correct`): the server computes the edit, applies it (an edit made stale by typing is
--- refused) and says why when it does not.
---@param opts rephrase.ImproveOpts?
function M.improve(opts)
  opts = opts or {}
  local command = opts.correct and 'rephrase.correct' or 'rephrase.improve'
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local done = opts.done or function() end
  local ranges = opts.ranges or (not opts.range and ranges_now(bufnr, 0)) or nil
  local uri = vim.uri_from_bufnr(bufnr)
  local function fail()
    done('error')
  end
  local function run(options)
    client.when_ready(bufnr, opts.correct and 'Correct' or 'Improve', function(c)
      local range = opts.range or ranges[c.offset_encoding] or ranges['utf-16']
      client.exec(bufnr, command, { uri, range, options }, function(result)
        result = value(result)
        if type(result) ~= 'table' or type(result.applied) ~= 'boolean' then
          notify.error('unexpected answer from ' .. command .. ': ' .. vim.inspect(result))
          return done('error')
        end
        done(result.applied and 'applied' or 'none', result)
      end, fail)
    end, fail)
  end
  if opts.correct and opts.style then
    notify.error('Correct takes no writing style or tone (it corrects only); use :Rephrase improve '
      .. opts.style)
    return done('none')
  end
  if not opts.style then
    return run(vim.empty_dict())
  end
  with_styles(bufnr, function(info)
    local options, err = M.style_options(opts.style, info)
    if not options then
      notify.warn(err)
      return done('none')
    end
    run(options)
  end, fail)
end

--- Corrects `opts.range` (spelling and grammar only, the wording kept) through the server's
--- `rephrase.correct`; `opts` as for |M.improve| without `style`.
---@param opts rephrase.ImproveOpts?
function M.correct(opts)
  opts = vim.tbl_extend('force', opts or {}, { correct = true })
  M.improve(opts)
end

--- Writes the buffer of the project file the server just edited, so it reaches the disk.
---@param file_uri string?
function M.save_project_file(file_uri)
  if type(file_uri) ~= 'string' or not config.get().save_project_file then
    return
  end
  local buf = vim.fn.bufnr(vim.uri_to_fname(file_uri))
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
    notify.error('unexpected answer from the server: ' .. vim.inspect(result))
    return false
  end
  if not result.applied then
    notify.warn(noun .. ' not changed: ' .. (value(result.reason) or 'the edit was refused'))
    return false
  end
  local file = value(result.file)
  M.save_project_file(file)
  local where = file and (' in ' .. vim.fn.fnamemodify(vim.uri_to_fname(file), ':~:.')) or ''
  notify.say(noun .. ' set to ' .. (choice or 'default') .. where)
  return true
end

local KINDS = {
  writingStyle = { noun = 'writing style', list = 'writingStyles', set = 'rephrase.setStyle' },
  tone = { noun = 'tone', list = 'tones', set = 'rephrase.setTone' },
}

--- Sets the writing style or tone `choice` ("default" clears it) in the project file.
---@param kind 'writingStyle'|'tone'
---@param bufnr integer
---@param choice string
---@param done fun(choice: string?)
function M.set_style(kind, bufnr, choice, done)
  local spec = assert(KINDS[kind], 'kind must be writingStyle or tone')
  client.exec(bufnr, spec.set, { vim.uri_from_bufnr(bufnr), choice }, function(result)
    done(after_set(spec.noun, choice, result) and choice or nil)
  end, function()
    done(nil)
  end)
end

--- :Rephrase style / :Rephrase tone — a vim.ui.select picker filled from rephrase.listStyles.
---@param kind 'writingStyle'|'tone'
---@param bufnr integer?
---@param done fun(choice: string?)?
function M.pick_style(kind, bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  done = done or function() end
  local spec = assert(KINDS[kind], 'kind must be writingStyle or tone')
  with_styles(bufnr, function(info)
    local language = value(info.language) or 'this document'
    if not value(info.supported) then
      notify.warn(value(info.reason) or (language .. ' has no writing styles or tones'))
      return done(nil)
    end
    local items = vim.deepcopy(value(info[spec.list]) or {})
    if #items == 0 then
      notify.warn('no ' .. spec.noun .. ' is available for ' .. language)
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
      M.set_style(kind, bufnr, choice, done)
    end)
  end, done)
end

local AUTO = 'auto (detect)'

--- Sets the document language `choice` ("auto" or AUTO: detect it) in the project file.
---@param bufnr integer
---@param choice string
---@param done fun(choice: string?)
function M.set_language(bufnr, choice, done)
  local auto = choice == AUTO or choice == 'auto'
  client.exec(bufnr, 'rephrase.setLanguage', { vim.uri_from_bufnr(bufnr), auto and vim.NIL or choice },
    function(result)
      done(after_set('language', auto and 'automatic detection' or choice, result) and choice or nil)
    end, function()
      done(nil)
    end)
end

--- :Rephrase language — the server's targets plus automatic detection.
---@param bufnr integer?
---@param done fun(choice: string?)?
function M.pick_language(bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  done = done or function() end
  with_styles(bufnr, function(info)
    local items = { AUTO }
    vim.list_extend(items, value(info.targets) or {})
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
      M.set_language(bufnr, choice, done)
    end)
  end, done)
end

local function group_digits(n)
  local s = tostring(math.floor(n))
  local out = s:reverse():gsub('(%d%d%d)', '%1,'):reverse()
  return (out:gsub('^,', ''))
end

--- The text-improvement characters and the billing period, when the service gave them.
---@param usage table
---@return string
local function usage_details(usage)
  local parts = {}
  local write = value(usage.writeCharacterCount)
  if type(write) == 'number' then
    table.insert(parts, ('Text improvement: %s characters'):format(group_digits(write)))
  end
  local start, finish = value(usage.periodStart), value(usage.periodEnd)
  if type(start) == 'string' and type(finish) == 'string' then
    table.insert(parts, ('billing period %s to %s'):format(start, finish))
  end
  return #parts > 0 and (' ' .. table.concat(parts, '; ') .. '.') or ''
end

--- The usage total, one sentence.
---@param usage table
---@return string
local function format_total(usage)
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

--- One line about the usage figures returned by `rephrase.usage`.
---@param usage table
---@return string
function M.format_usage(usage)
  local line = format_total(usage)
  if type(value(usage.characterCount)) ~= 'number' then
    return line
  end
  return line .. usage_details(usage)
end

--- :Rephrase usage
---@param bufnr integer?
---@param done fun(line: string?)?
function M.usage(bufnr, done)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  done = done or function() end
  client.exec(bufnr, 'rephrase.usage', { vim.uri_from_bufnr(bufnr) }, function(result)
    result = value(result)
    if type(result) ~= 'table' then
      notify.error('unexpected answer from the server: ' .. vim.inspect(result))
      return done(nil)
    end
    local line = M.format_usage(result)
    notify.say(line)
    done(line)
  end, function()
    done(nil)
  end)
end

M.subcommands = { 'correct', 'improve', 'alternatives', 'style', 'tone', 'language', 'usage', 'restart' }

--- How long completion waits for the server's rephrase.listStyles.
M.complete_timeout_ms = 1000

--- The names :Rephrase {sub} takes as its argument, from the server for the current buffer.
---@param sub string
---@return string[]
local function argument_names(sub)
  local info = client.exec_sync(vim.api.nvim_get_current_buf(), 'rephrase.listStyles',
    { vim.uri_from_bufnr(vim.api.nvim_get_current_buf()) }, M.complete_timeout_ms)
  if type(info) ~= 'table' then
    return {}
  end
  local styles, tones = value(info.writingStyles) or {}, value(info.tones) or {}
  if sub == 'improve' then
    return vim.list_extend(vim.list_extend({}, styles), tones)
  elseif sub == 'style' or sub == 'tone' then
    return vim.list_extend(vim.list_extend({}, sub == 'style' and styles or tones), { 'default' })
  elseif sub == 'language' then
    return vim.list_extend({ 'auto' }, value(info.targets) or {})
  end
  return {}
end

--- Completion for :Rephrase: the subcommands, then the styles, tones or languages the server
--- offers for the current buffer.
---@param arglead string
---@param cmdline string
---@return string[]
function M.complete(arglead, cmdline)
  local words = vim.split(cmdline, '%s+', { trimempty = true })
  local typing = #words - (arglead == '' and 0 or 1) + 1 -- the position of the word being typed
  local candidates
  if typing <= 2 then
    candidates = M.subcommands
  elseif typing == 3 then
    candidates = argument_names(words[2])
  else
    return {}
  end
  return vim.tbl_filter(function(item)
    return item:sub(1, #arglead) == arglead
  end, candidates)
end

--- The :Rephrase command (`opts` as given to nvim_create_user_command callbacks).
---@param opts table
function M.command(opts)
  local args = vim.split(opts.args or '', '%s+', { trimempty = true })
  local sub, arg = args[1] or 'improve', args[2]
  local bufnr = vim.api.nvim_get_current_buf()
  local ignore = function() end
  if #args > 2 then
    notify.error(('too many arguments: %s'):format(table.concat(args, ' ')))
  elseif sub == 'improve' then
    M.improve({ bufnr = bufnr, style = arg, ranges = ranges_now(bufnr, opts.range, opts.line1, opts.line2) })
  elseif sub == 'correct' then
    M.correct({ bufnr = bufnr, style = arg, ranges = ranges_now(bufnr, opts.range, opts.line1, opts.line2) })
  elseif sub == 'alternatives' and not arg then
    local ranges = ranges_now(bufnr, opts.range, opts.line1, opts.line2)
    require('rephrase.alternatives').show({ bufnr = bufnr, ranges = ranges })
  elseif (sub == 'style' or sub == 'tone') and arg then
    M.set_style(sub == 'style' and 'writingStyle' or 'tone', bufnr, arg, ignore)
  elseif sub == 'style' or sub == 'tone' then
    M.pick_style(sub == 'style' and 'writingStyle' or 'tone', bufnr)
  elseif sub == 'language' and arg then
    M.set_language(bufnr, arg, ignore)
  elseif sub == 'language' then
    M.pick_language(bufnr)
  elseif sub == 'usage' then
    M.usage(bufnr)
  elseif sub == 'restart' then
    client.restart()
  else
    notify.error(('unknown subcommand "%s"; use one of: %s'):format(sub, table.concat(M.subcommands, ', ')))
  end
end

return M
