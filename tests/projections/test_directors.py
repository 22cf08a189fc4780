"""The directors' read model (rule C-DIR-1): found by their token's hash, rebuilt from the log."""

from __future__ import annotations

from pathlib import Path

from domain.people.director import BOOTSTRAP
from domain.people.tokens import token_hash
from projections import directors
from service.bootstrap import bootstrap
from service.settings import Settings


def test_the_directors_view_finds_a_token_and_a_rebuild_equals_the_live_view(
    tmp_path: Path,
) -> None:
    services = bootstrap(Settings(data_dir=tmp_path, dev=True, run_scheduler=False))
    try:
        anna = services.directors.appoint(BOOTSTRAP, "Anna Schmidt")
        bernd = services.directors.appoint(anna.director.acting(), "Bernd Weber")
        services.directors.revoke(anna.director.acting(), bernd.director.id)
        services.views.catch_up()
        with services.views.reading() as db:
            live = directors.list_directors(db)
            found = directors.director_id_by_token_hash(db, token_hash(anna.token))
        assert found == anna.director.id
        assert [(row.name, row.appointed_by, row.revoked_by) for row in live] == [
            ("Anna Schmidt", "director", None),
            ("Bernd Weber", f"director:{anna.director.id}", f"director:{anna.director.id}"),
        ]

        services.views.rebuild("directors")
        with services.views.reading() as db:
            assert directors.list_directors(db) == live
    finally:
        services.close()
