-- The handlers for what the server asks of the editor: settings (`workspace/configuration`),
-- edits (`workspace/applyEdit`), messages (`window/showMessage`) and a new pull of diagnostics
-- (`workspace/diagnostic/refresh`). lsp/rephrase.lua names them.

local compat = require('rephrase.compat')
local notify = require('rephrase.notify')

local M = {}

--- nil for JSON null (vim.NIL) and nil.
---@param v any
---@return any
local function value(v)
  if v == vim.NIL then
    return nil
  end
  return v
end
M.value = value

--- `window/showMessage`: through rephrase.notify (Neovim 0.7 prints with nvim_out_write, which
--- turns a long message into a "Press ENTER" prompt).
---@param params lsp.ShowMessageParams
function M.show_message(_, params)
  if type(params) ~= 'table' or type(params.message) ~= 'string' then
    return vim.NIL
  end
  local levels = { vim.log.levels.ERROR, vim.log.levels.WARN }
  local message = params.message:gsub('^rephrase%-ls: ', ''):gsub('^rephrase: ', '')
  notify.say(message, levels[params.type] or vim.log.levels.INFO)
  return vim.NIL
end

--- `workspace/configuration`: each item's section of the client's settings (the whole settings
--- for an empty section), null where there is none.
---@param params lsp.ConfigurationParams
---@param ctx lsp.HandlerContext
function M.configuration(_, params, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local settings = client and compat.client_settings(client) or {}
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

--- True when `edit` changes `bufnr` at a version older than the buffer's.
---@param edit lsp.WorkspaceEdit
---@param bufnr integer
---@return boolean
function M.edit_is_stale(edit, bufnr)
  local uri = vim.uri_from_bufnr(bufnr)
  for _, change in ipairs(value(edit.documentChanges) or {}) do
    local doc = value(change.textDocument)
    local version = doc and value(doc.version)
    if doc and doc.uri == uri and type(version) == 'number' and version < compat.buf_version(bufnr) then
      return true
    end
  end
  return false
end

--- A new buffer has one empty line, which text inserted before it keeps: "a = 1\n" inserted into
--- a created file gives the lines { 'a = 1', '' }, saved as "a = 1\n\n". Drops that line.
---@param bufnr integer
local function drop_new_buffer_line(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  local last = vim.api.nvim_buf_get_lines(bufnr, count - 1, count, false)[1]
  if count > 1 and last == '' then
    vim.api.nvim_buf_set_lines(bufnr, count - 1, count, false, {})
  end
end

M.PROJECT_FILE = '.rephrase.toml'

--- The buffer named `fname`, without creating one (vim.fn.bufnr takes a pattern); nil if none.
---@param fname string
---@return integer?
local function buffer_of(fname)
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(buf) == fname then
      return buf
    end
  end
  return nil
end

---@class rephrase.ProjectFileBefore
---@field uri string
---@field fname string
---@field buf integer? its buffer before the edit (nil: none)
---@field loaded boolean
---@field modified boolean it had unsaved changes
---@field versioned boolean the edit names the buffer's version (the server has it open)

--- The project files (`.rephrase.toml`) `edit` changes or creates, with the state of their
--- buffers before it. A loaded, unmodified one is first read again when it changed on disk
--- ('autoread'): the server computed the edit from the file.
---@param edit lsp.WorkspaceEdit
---@return rephrase.ProjectFileBefore[]
local function project_files(edit)
  local uris, versioned = vim.tbl_keys(value(edit.changes) or {}), {}
  for _, change in ipairs(value(edit.documentChanges) or {}) do
    local doc = value(change.textDocument)
    if doc and type(doc.uri) == 'string' then
      table.insert(uris, doc.uri)
      versioned[doc.uri] = versioned[doc.uri] or type(value(doc.version)) == 'number'
    elseif change.kind == 'create' and type(change.uri) == 'string' then
      table.insert(uris, change.uri)
    end
  end
  local found, seen = {}, {}
  for _, uri in ipairs(uris) do
    local ok, fname = pcall(vim.uri_to_fname, uri)
    if ok and not seen[uri] and vim.fn.fnamemodify(fname, ':t') == M.PROJECT_FILE then
      seen[uri] = true
      local buf = buffer_of(fname)
      local loaded = buf ~= nil and vim.api.nvim_buf_is_loaded(buf)
      if loaded and not vim.bo[buf].modified then
        vim.cmd('silent! checktime ' .. buf)
      end
      table.insert(found, {
        uri = uri,
        fname = fname,
        buf = buf,
        loaded = loaded,
        modified = loaded and vim.bo[buf].modified or false,
        versioned = versioned[uri] or false,
      })
    end
  end
  return found
end

--- Whether to write the project file after the server changed it (`save_project_file`).
---@return boolean
local function saving()
  local ok, options = pcall(function()
    return require('rephrase.config').get()
  end)
  return not ok or options.save_project_file ~= false
end

--- Writes the project files the edit changed, as an "add to dictionary" action is expected to
--- (VS Code saves a refactoring's files that no editor shows): each one that had no unsaved
--- change before the edit and that no window shows. A buffer the edit loaded is then unloaded
--- again (wiped when the edit made it): left loaded it would go stale when the file changes on
--- disk. One shown in a window is left modified for the writer to see and save.
---@param files rephrase.ProjectFileBefore[]
local function save_project_files(files)
  if #files == 0 or not saving() then
    return
  end
  for _, before in ipairs(files) do
    local buf = buffer_of(before.fname)
    if buf and not before.modified and vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].modified
      and #vim.fn.win_findbuf(buf) == 0 then
      local ok, err = pcall(vim.api.nvim_buf_call, buf, function()
        vim.cmd('silent write')
      end)
      if not ok then
        notify.warn(('%s was changed but not written (%s); write it with :wall'):format(
          vim.fn.fnamemodify(before.fname, ':~:.'), tostring(err)))
      elseif not before.loaded then
        -- Neovim 0.7's apply_workspace_edit may still hold the buffer number: unload quietly.
        pcall(vim.api.nvim_buf_delete, buf, before.buf == nil and {} or { unload = true })
      end
    end
  end
end

--- `workspace/applyEdit`: like Neovim's, but refuses an edit pinned to an older version of a
--- loaded buffer (Neovim 0.7 to 0.10 apply edits pinned to version 0 regardless) and says why,
--- and writes the project file the edit changed (see save_project_files).
---@param params lsp.ApplyWorkspaceEditParams
---@param ctx lsp.HandlerContext
---@return lsp.ApplyWorkspaceEditResult
function M.apply_edit(_, params, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client or type(params) ~= 'table' or type(params.edit) ~= 'table' then
    return { applied = false, failureReason = 'no edit' }
  end
  local files = project_files(params.edit) -- before anything below makes their buffers
  local created = {}
  for _, change in ipairs(value(params.edit.documentChanges) or {}) do
    local doc = value(change.textDocument)
    local version = doc and value(doc.version)
    if doc and type(version) == 'number' then
      local bufnr = vim.uri_to_bufnr(doc.uri)
      if vim.api.nvim_buf_is_loaded(bufnr) and version < compat.buf_version(bufnr) then
        notify.warn('the buffer changed while the text was being improved; nothing was applied. Try again.')
        return { applied = false, failureReason = 'the document changed since the edit was computed' }
      end
    elseif change.kind == 'create' and type(change.uri) == 'string' then
      -- A file the edit creates: empty until the edit fills it.
      local stat = compat.uv.fs_stat(vim.uri_to_fname(change.uri))
      if not stat or stat.size == 0 then
        table.insert(created, change.uri)
      end
    end
  end
  for _, before in ipairs(files) do
    if before.modified and not before.versioned then
      -- The server computed the edit from the file on disk; the buffer differs from it.
      -- The server says why (its warning names the file and this reason).
      return { applied = false,
        failureReason = 'it has unsaved changes in Neovim; write or undo them, then try again' }
    end
  end
  local ok, err = pcall(vim.lsp.util.apply_workspace_edit, params.edit, client.offset_encoding)
  if not ok then
    return { applied = false, failureReason = tostring(err) }
  end
  for _, uri in ipairs(created) do
    drop_new_buffer_line(vim.uri_to_bufnr(uri))
  end
  save_project_files(files)
  return { applied = true }
end

--- `workspace/diagnostic/refresh`: pulls the diagnostics of each buffer the client serves again,
--- so a save, a word added or a setting changed shows at once. Neovim 0.10 and 0.11 pull
--- diagnostics but neither announce nor answer this request; a Neovim that answers it itself
--- (a default handler) is left to. Neovim 0.7 to 0.9 do not pull (the server pushes): nothing
--- to do.
---@param err lsp.ResponseError?
---@param result any
---@param ctx lsp.HandlerContext
function M.diagnostic_refresh(err, result, ctx)
  local own = vim.lsp.handlers['workspace/diagnostic/refresh']
  if own ~= nil and own ~= M.diagnostic_refresh then
    return own(err, result, ctx)
  end
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  local provider = client and client.server_capabilities and value(client.server_capabilities.diagnosticProvider)
  if not provider then
    return vim.NIL
  end
  for bufnr in pairs(client.attached_buffers or {}) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      -- No handler given: the client's own for textDocument/diagnostic shows the report.
      compat.call(client, 'request', 'textDocument/diagnostic',
        { textDocument = vim.lsp.util.make_text_document_params(bufnr) }, nil, bufnr)
    end
  end
  return vim.NIL
end

return M
