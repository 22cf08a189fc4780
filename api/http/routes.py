"""The REST routes' common settings, said once. Every handler reads or writes the stores, so it
runs in a worker thread (``sync_to_thread``); a director's command passes the director guard
(``director_only``: what the path names decides whose scope it needs, rule C-DIR-1)."""

from __future__ import annotations

from functools import partial

from litestar import delete, get, post, put

from api.http.auth import director_only

get_route = partial(get, sync_to_thread=True)
"""A read, public unless its controller's guards say otherwise."""
post_route = partial(post, sync_to_thread=True)
put_route = partial(put, sync_to_thread=True)
delete_route = partial(delete, sync_to_thread=True)

director_get = partial(get, guards=[director_only], sync_to_thread=True)
"""A read for directors only."""
director_post = partial(post, guards=[director_only], sync_to_thread=True)
"""A director's command: 201 when it creates something, else ``status_code=200``."""
director_put = partial(put, guards=[director_only], sync_to_thread=True)
director_delete = partial(delete, guards=[director_only], sync_to_thread=True)
