"""`ray._private.state`: the GCS's tables, as far as a Ray program reads them here (miniray/gcs_client.py)."""

from ..gcs_client import GlobalState, state

__all__ = ["GlobalState", "state"]
