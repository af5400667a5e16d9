"""`ray._raylet`'s names that Ray's examples import (`from ray._raylet import ObjectRefGenerator`)."""

from .generators import DynamicObjectRefGenerator, ObjectRefGenerator
from .objects import ObjectRef

__all__ = ["DynamicObjectRefGenerator", "ObjectRef", "ObjectRefGenerator"]
