"""Read histories back (the session store lives with the native format, which exports
read through it: :mod:`memsim.formats._store`)."""

from memsim.formats._store import SessionStore, expand, read_histories, stored_session

__all__ = ["SessionStore", "expand", "read_histories", "stored_session"]
