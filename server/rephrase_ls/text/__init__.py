"""rephrase_ls.text."""
