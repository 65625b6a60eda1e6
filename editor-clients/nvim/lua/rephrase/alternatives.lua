-- :Rephrase alternatives: the server's `rephrase.alternatives` for the paragraph(s) at the cursor or
-- range (every writing style and tone the language offers, asked at once), vim.ui.select over the
-- rewrites, and the chosen one applied by the server (`rephrase.applyAlternative`, which refuses
-- an edit made stale by typing). The server explains every refusal itself.

local client = require('rephrase.client')
local notify = require('rephrase.notify')
local value = require('rephrase.handlers').value

local M = {}

--- The alternatives of a `rephrase.alternatives` result that carry what the picker needs.
---@param result any
---@return table[]? alternatives
function M.parse(result)
  result = value(result)
  if type(result) ~= 'table' or type(value(result.alternatives)) ~= 'table' then
    return nil
  end
  local out = {}
  for _, alt in ipairs(value(result.alternatives)) do
    local command = type(alt) == 'table' and value(alt.command) or nil
    if type(alt.label) ~= 'string' or type(alt.text) ~= 'string' or type(command) ~= 'table'
        or type(command.command) ~= 'string' or type(value(command.arguments)) ~= 'table' then
      return nil
    end
    table.insert(out, alt)
  end
  return out
end

--- One line per rewrite: its label and its text (long text is cut by vim.ui.select's UI).
---@param alt table
---@return string
function M.format_item(alt)
  return ('%s: %s'):format(alt.label, (alt.text:gsub('%s+', ' ')))
end

---@class rephrase.AlternativesOpts
---@field bufnr integer?
---@field ranges table<string, rephrase.Range> the range in each position encoding
---@field done fun(status: 'applied'|'none'|'error', label: string?)?

--- Asks for the alternatives, lets the writer pick one, and has the server apply it.
---@param opts rephrase.AlternativesOpts
function M.show(opts)
  local bufnr = opts.bufnr or vim.api.nvim_get_current_buf()
  local done = opts.done or function() end
  local uri = vim.uri_from_bufnr(bufnr)
  local function fail()
    done('error')
  end
  client.when_ready(bufnr, 'Alternatives', function(c)
    local range = opts.ranges[c.offset_encoding] or opts.ranges['utf-16']
    client.exec(bufnr, 'rephrase.alternatives', { uri, range }, function(result)
      local alternatives = M.parse(result)
      if not alternatives then
        notify.error('unexpected answer from rephrase.alternatives: ' .. vim.inspect(result))
        return done('error')
      end
      if #alternatives == 0 then
        return done('none') -- the server has said why
      end
      vim.ui.select(alternatives, {
        prompt = 'Rephrase: alternatives for this paragraph',
        format_item = M.format_item,
      }, function(choice)
        if not choice then
          return done('none')
        end
        local command = value(choice.command)
        client.exec(bufnr, command.command, value(command.arguments), function(applied)
          applied = value(applied)
          if type(applied) ~= 'table' or type(applied.applied) ~= 'boolean' then
            notify.error('unexpected answer from ' .. command.command .. ': ' .. vim.inspect(applied))
            return done('error')
          end
          done(applied.applied and 'applied' or 'none', choice.label)
        end, fail)
      end)
    end, fail)
  end, fail)
end

return M
