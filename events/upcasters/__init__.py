"""The upcasters of every game type; importing this package registers them
in :data:`events.upcasting.UPCASTERS`."""

from events.upcasters import ttr_sf

__all__ = ["ttr_sf"]
