"""rephrase_ls.offline."""
