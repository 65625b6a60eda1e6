-- :Rephrase {correct|improve [style-or-tone]|alternatives|style [name]|tone [name]|language [code]|usage|restart}
if vim.g.loaded_rephrase then
  return
end
vim.g.loaded_rephrase = true

vim.api.nvim_create_user_command('Rephrase', function(opts)
  require('rephrase.commands').command(opts)
end, {
  nargs = '*',
  range = true,
  desc = 'rephrase-ls: correct, improve [style|tone], alternatives, style, tone, language, usage, restart',
  complete = function(arglead, cmdline)
    return require('rephrase.commands').complete(arglead, cmdline)
  end,
})

-- Neovim 0.11+: the options of vim.g.rephrase (set before plugins load) laid over lsp/rephrase.lua,
-- so that vim.lsp.enable('rephrase') alone follows them. Nothing is probed here.
if vim.g.rephrase ~= nil and require('rephrase.compat').has_lsp_config() then
  local ok, options = pcall(require('rephrase.config').get)
  if ok then
    vim.lsp.config('rephrase', require('rephrase.config').overrides(vim.g.rephrase))
  else
    vim.notify(tostring(options), vim.log.levels.ERROR)
  end
end
