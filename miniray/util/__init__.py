"""Ray's `ray.util` pieces that miniray mirrors."""
from .scheduling_strategies import NodeAffinitySchedulingStrategy  # noqa: F401
