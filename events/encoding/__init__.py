"""How stored values are written and read: timestamps, cursors, payload codec, upcasting."""
