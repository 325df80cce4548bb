"""The ``cablecar`` command line: the top layer, which starts everything
(``serve``, ``migrate``, the bot runners and webhook dispatchers)."""
