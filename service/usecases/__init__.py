"""Use cases of the game server that are not HTTP: what a caller may ask of
it, whatever edge (HTTP routes, the bot runner) asks."""
