"""rephrase_ls.lsp."""
