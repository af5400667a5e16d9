"""`ray._raylet`'s names that Ray's examples import (`from ray._raylet import ObjectRefGenerator`), and
the GCS client Ray's own tests drain a node with."""

from .gcs_client import GcsClient
from .generators import DynamicObjectRefGenerator, ObjectRefGenerator
from .objects import ObjectRef

__all__ = ["DynamicObjectRefGenerator", "GcsClient", "ObjectRef", "ObjectRefGenerator"]
