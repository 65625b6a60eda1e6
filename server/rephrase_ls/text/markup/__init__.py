"""rephrase_ls.text.markup."""
