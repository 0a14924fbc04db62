"""Server settings (the table ``guild_settings``): each server's own defaults, one row per
server holding the values it set as typed JSON, with an optimistic version."""
