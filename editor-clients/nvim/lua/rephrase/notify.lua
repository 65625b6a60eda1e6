-- Messages for the writer: information shortened to fit the command line (never a "Press ENTER"
-- prompt), warnings and errors whole.

local M = {}

--- The last messages shortened on the command line, whole (`:checkhealth rephrase` lists them).
---@type string[]
M.shortened = {}

--- `text` made to fit in `width` display cells: itself, else its first sentence, else that or the
--- whole without parenthesised asides, else cut at a word (ending with "…").
---@param text string
---@param width integer
---@return string
function M.fit(text, width)
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

--- Tells the writer `message` (prefixed "rephrase: "). An information that does not fit on the
--- command line is shown shortened and kept whole in M.shortened.
---@param message string
---@param level integer? a vim.log.levels value; INFO by default
function M.say(message, level)
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
  vim.notify(M.fit(text, width), level)
end

---@param message string
function M.warn(message)
  M.say(message, vim.log.levels.WARN)
end

---@param message string
function M.error(message)
  M.say(message, vim.log.levels.ERROR)
end

return M
