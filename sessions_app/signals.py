"""Signals the store sends after its writes commit. Layers above subscribe (the live updates do),
so the store never imports them."""

from django.dispatch import Signal

# sender=Session class; kwargs: session_id, key (the new active node), previous (its key or None)
active_node_switched = Signal()
