"""The user's configuration: editor settings, the user config file, the project file, the
state folder."""
