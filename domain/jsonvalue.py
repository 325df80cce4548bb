"""The JSON value alias, below every other domain module (bodies, parts, core
and the games all speak of JSON values)."""

from typing import Any

#: a JSON value (the one alias of the project)
JSON = Any
