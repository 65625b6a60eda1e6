-- luacheck configuration for the plugin and its headless tests.
std = 'luajit'
globals = { 'vim' }
max_line_length = 120
