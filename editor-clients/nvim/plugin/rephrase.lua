-- :Rephrase {improve|style|tone|language|usage|restart}
if vim.g.loaded_rephrase then
  return
end
vim.g.loaded_rephrase = true

vim.api.nvim_create_user_command('Rephrase', function(opts)
  require('rephrase').command(opts)
end, {
  nargs = '*',
  range = true,
  desc = 'rephrase-ls: improve [style|tone], style, tone, language, usage, restart',
  complete = function(arglead, cmdline)
    return require('rephrase').complete(arglead, cmdline)
  end,
})
