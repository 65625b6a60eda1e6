"""rephrase_ls.service."""
